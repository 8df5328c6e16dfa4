export { type ApproveResult, approveImportBatch } from './commands/approveImportBatch';
export { type ImportInput, importContent } from './commands/importContent';
export { recordWordListUse } from './commands/recordWordListUse';
export { type SetBlueprintCellResult, setBlueprintCell } from './commands/setBlueprintCell';
export { currentItemBankPin, type ItemBankPinEntry, takeItemBankPin } from './commands/takeItemBankPin';
export { contentContext } from './context';
export type {
  BlueprintScope,
  CellAddress,
  CellKind,
  CellProposal,
  MeasureWarning,
  ResolvedCell,
} from './engine/blueprintTypes';
export { breakBeforeFlags } from './engine/breakBefore';
export { contentHash } from './engine/hash';
export { wordListContentHash } from './engine/wordListContentHash';
export { skillExists, skillLabels, trainingLevelNames } from './queries/catalogLabels';
export * from './queries/catalogTypes';
export {
  type AuthoringItem,
  authoringItemOf,
  type ItemRowDb,
  itemColumns,
  type StudentItem,
  studentItemOf,
} from './queries/itemViews';
export { loadCatalog } from './queries/loadCatalog';
export { type OperationalForm, operationalFormsFor } from './queries/operationalForms';
export { contentItemOwner, screeningFormOwner } from './queries/owners';
export { pickWordList } from './queries/pickWordList';
export { type ReadingPassage, readingPassage } from './queries/readingPassages';
export { resolveBlueprintCell } from './queries/resolveBlueprintCell';
export {
  answerKeyQuery,
  type ServedItemRow,
  screeningFormItems,
  servedItemQuery,
} from './queries/screeningItems';
export { servedStudentItem } from './queries/servedItem';
export { operationalWordLists, wordListVersion } from './queries/servedWordLists';
export { operationalPassage, operationalWordList, type SheetPassage, type SheetWordList } from './queries/sheetContent';
export { studentItemsByIds, type TrainingCandidate, trainingItemCandidates } from './queries/trainingCandidates';
export {
  bridgeItems,
  hasTrainingContent,
  itemRowById,
  itemRowQuery,
  scaffoldPrompt,
  skillsQuery,
  type TrainingScope,
  trainableSkills,
  trainingItemsQuery,
  trainingLevelsQuery,
} from './queries/trainingPool';
export type { WordListView } from './queries/wordListView';
export { IMPORT_SIZE_LIMITS } from './routes/sizeLimit';
export type { WordListContent } from './rules/wordListRules';
export { ImportBody, type ImportBodyInput } from './schemas/importBody';
export type { ImportReport } from './schemas/reportSchema';
/** The global-or-organization scope rule of content, for other back-office catalogs (session blueprints). */
export * as contentScope from './scope';
