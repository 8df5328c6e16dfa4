export { recordEvidence } from './commands/recordEvidence';
export { assessmentContext } from './context';
export * from './events';
export { evidenceOf } from './evidence/evidenceOf';
export type {
  EvidenceFilter,
  MeasureEvidence,
  QuestionEvidence,
  ReadEvidence,
  SittingEvidence,
  StudentEvidence,
  VoidedEvidence,
} from './evidence/evidenceTypes';
export { hasVoidedAttempt, studentOfAttempt } from './evidence/voidedAttempts';
export { type BandedRead, bandedRead, RATE_CUTS, type RateCut } from './oral/bandedRead';
export { markOralReading } from './oral/markOralReading';
export { foldOralReading, type OralReadingState } from './oral/oralReadingState';
export { type OralReadingView, oralReadingView } from './oral/oralReadingView';
export {
  ORF_DURATION_SECONDS,
  ORF_MARKS,
  type OralReadingMarkedData,
  type OralReadingStartedData,
  type OralReadingStoppedData,
  type OrfMark,
} from './oral/orfEvents';
export { OralReadingSchema } from './oral/orfSchemas';
export {
  currentReadCuts,
  pinnedReadCuts,
  READ_CELLS,
  type ReadCell,
  type ReadCutPin,
  type ReadCutTable,
} from './oral/readCuts';
export { bandFields, literals as enumOf, WindowSchema } from './oral/readSchemas';
export { STAFF_REACH, STAFF_READERS } from './oral/staffReach';
export { startOralReading } from './oral/startOralReading';
export { stopOralReading } from './oral/stopOralReading';
export { BLUEPRINT_STATUSES, type BlueprintStatus } from './page/blueprintStatus';
export { CELL_STATUSES, type CellStatus } from './page/cellStatus';
export type { PageClass } from './page/heldClass';
export { ASSESSMENT_PROJECTIONS } from './projections';
export {
  type AttemptHistoryQuery,
  type AttemptHistoryRow,
  attemptHistoryOf,
  attemptOf,
} from './queries/attemptHistory';
export { studentsOfAttempts } from './queries/attemptOwners';
export {
  type BandBasis,
  bandRead,
  READ_BANDS,
  type ReadBand,
  type ReadBanding,
  type ReadCuts,
} from './scoring/bandRead';
export {
  countRead,
  READ_REFUSALS,
  type ReadCountResult,
  type ReadCounts,
  type ReadInput,
  type ReadRefusal,
} from './scoring/readCounts';
export {
  comprehensionComposite,
  INCOMPLETE_REASONS,
  type IncompleteReason,
  type MeasureLevelCuts,
  type MeasureScore,
  type MeasureScoreInput,
  type SittingEnd,
  scoreMeasure,
} from './scoring/scoreMeasure';
export { type ReadScore, scoreRead } from './scoring/scoreRead';
export { type ReadingSheetInput, renderReadingSheet } from './sheets/readingSheet';
export { renderWordListSheet, type WordListSheetInput } from './sheets/wordListSheet';
export { cutVersionsInForce, pinnedCuts } from './sittings/cutTables';
export { servedPosition } from './sittings/foldSitting';
export {
  type MeasureComposite,
  type MeasureItemReview,
  type MeasureResult,
  type SittingResult,
  scoreSitting,
} from './sittings/scoreSitting';
export { answerSitting, loadSitting } from './sittings/sittingCommands';
export {
  type SittingResultRead,
  sittingResultOf,
  sittingResultsOf,
} from './sittings/sittingResultOf';
export {
  MeasureCompositeSchema,
  MeasureItemReviewSchema,
  MeasureResultSchema,
} from './sittings/sittingSchemas';
export type {
  DigitalSittingStarted,
  PlannedQuestion,
  SittingAnswerRecorded,
  SittingFold,
  SittingMode,
  SittingPins,
} from './sittings/sittingTypes';
export { startSitting } from './sittings/startSitting';
export { pendingVoidOf } from './voids/pendingVoid';
export { MEASUREMENT_VOID, type VoidRecord, type VoidResult, voidAttempt } from './voids/voidAttempt';
export {
  type CalendarProblem,
  checkCalendar,
  defaultCalendar,
  defaultWindowOn,
  SCREENING_WINDOWS,
  type ScreeningWindow,
  type WindowDates,
  windowOn,
} from './windows/calendar';
export { endWithWindow, type WindowEnd, type WindowEndEffects } from './windows/endWithWindow';
export { isOpenStream, stopOpenSitting } from './windows/stopOpenSitting';
export { closeWindow, openWindow, setWindowCalendar } from './windows/windowCommands';
export {
  dayIn,
  type OpenTrigger,
  type WindowCalendarState,
  type WindowStatus,
  windowCalendarState,
} from './windows/windowState';
export { recordWordListRead, type WordListReadData } from './wordListReads/recordWordListRead';
export { teacherWordLists } from './wordListReads/teacherWordLists';
export { type WordListReadView, wordListReadView } from './wordListReads/wordListReadView';
