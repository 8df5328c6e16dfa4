export type {
  BlueprintScope,
  CellAddress,
  CellKind,
  CellProposal,
  MeasureWarning,
  ResolvedCell,
} from './blueprint/blueprintTypes';
export { resolveBlueprintCell } from './blueprint/resolveBlueprintCell';
export * from './catalog/catalogTypes';
export { loadCatalog } from './catalog/loadCatalog';
export { type ApproveResult, approveImportBatch } from './commands/approveImportBatch';
export { type ImportInput, importContent } from './commands/importContent';
export { recordWordListUse } from './commands/recordWordListUse';
export { type SetBlueprintCellResult, setBlueprintCell } from './commands/setBlueprintCell';
export { currentItemBankPin, type ItemBankPinEntry, takeItemBankPin } from './commands/takeItemBankPin';
export { contentContext } from './context';
export { breakBeforeFlags } from './forms/breakBefore';
export { type OperationalForm, operationalFormsFor } from './forms/operationalForms';
export { contentHash } from './hash';
export { ImportBody, type ImportBodyInput } from './import/importBody';
export type { ImportReport } from './import/reportSchema';
export { IMPORT_SIZE_LIMITS } from './import/sizeLimit';
export { skillExists, skillLabels, trainingLevelNames } from './queries/catalogLabels';
export {
  type AuthoringItem,
  authoringItemOf,
  type ItemRowDb,
  itemColumns,
  type StudentItem,
  studentItemOf,
} from './queries/itemViews';
export { contentItemOwner, screeningFormOwner } from './queries/owners';
export { type ReadingPassage, readingPassage } from './queries/readingPassages';
export {
  answerKeyQuery,
  type ServedItemRow,
  screeningFormItems,
  servedItemQuery,
} from './queries/screeningItems';
export { servedStudentItem } from './queries/servedItem';
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
/** The global-or-organization scope rule of content, for other back-office catalogs (session blueprints). */
export * as contentScope from './scope';
export { pickWordList } from './wordLists/pickWordList';
export { operationalWordLists, wordListVersion } from './wordLists/servedWordLists';
export { wordListContentHash } from './wordLists/wordListContentHash';
export type { WordListContent } from './wordLists/wordListRules';
export type { WordListView } from './wordLists/wordListView';
