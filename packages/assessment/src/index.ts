export { endWithWindow, type WindowEnd, type WindowEndEffects } from './commands/endWithWindow';
export { markOralReading } from './commands/markOralReading';
export { recordEvidence } from './commands/recordEvidence';
export { recordWordListRead } from './commands/recordWordListRead';
export { answerSitting, loadSitting } from './commands/sittingCommands';
export { startOralReading } from './commands/startOralReading';
export { startSitting } from './commands/startSitting';
export { isOpenStream, stopOpenSitting } from './commands/stopOpenSitting';
export { stopOralReading } from './commands/stopOralReading';
export { MEASUREMENT_VOID, type VoidRecord, type VoidResult, voidAttempt } from './commands/voidAttempt';
export { closeWindow, openWindow, setWindowCalendar } from './commands/windowCommands';
export { assessmentContext } from './context';
export { type BandedRead, bandedRead, RATE_CUTS, type RateCut } from './engine/bandedRead';
export type { ReadCutTable } from './engine/bandRead';
export {
  type BandBasis,
  bandRead,
  READ_BANDS,
  type ReadBand,
  type ReadBanding,
  type ReadCuts,
} from './engine/bandRead';
export { BLUEPRINT_STATUSES, type BlueprintStatus } from './engine/blueprintStatus';
export {
  type CalendarProblem,
  checkCalendar,
  defaultCalendar,
  defaultWindowOn,
  SCREENING_WINDOWS,
  type ScreeningWindow,
  type WindowDates,
  windowOn,
} from './engine/calendar';
export { CELL_STATUSES, type CellStatus } from './engine/cellStatus';
export { servedPosition } from './engine/foldSitting';
export { foldOralReading, type OralReadingState } from './engine/oralReadingState';
export {
  countRead,
  READ_REFUSALS,
  type ReadCountResult,
  type ReadCounts,
  type ReadInput,
  type ReadRefusal,
} from './engine/readCounts';
export {
  comprehensionComposite,
  INCOMPLETE_REASONS,
  type IncompleteReason,
  type MeasureLevelCuts,
  type MeasureScore,
  type MeasureScoreInput,
  type SittingEnd,
  scoreMeasure,
} from './engine/scoreMeasure';
export { type ReadScore, scoreRead } from './engine/scoreRead';
export {
  type MeasureComposite,
  type MeasureItemReview,
  type MeasureResult,
  type SittingResult,
  scoreSitting,
} from './engine/scoreSitting';
export * from './events';
export {
  ORF_DURATION_SECONDS,
  ORF_MARKS,
  type OralReadingMarkedData,
  type OralReadingStartedData,
  type OralReadingStoppedData,
  type OrfMark,
} from './events/orfEvents';
export { READ_CELLS, type ReadCell, type ReadCutPin } from './events/readEvents';
export type {
  DigitalSittingStarted,
  PlannedQuestion,
  SittingAnswerRecorded,
  SittingFold,
  SittingMode,
  SittingPins,
} from './events/sittingTypes';
export { ASSESSMENT_PROJECTIONS } from './projections';
export {
  type AttemptHistoryQuery,
  type AttemptHistoryRow,
  attemptHistoryOf,
  attemptOf,
} from './queries/attemptHistory';
export { studentsOfAttempts } from './queries/attemptOwners';
export { cutVersionsInForce, pinnedCuts } from './queries/cutTables';
export { evidenceOf } from './queries/evidenceOf';
export type {
  EvidenceFilter,
  MeasureEvidence,
  QuestionEvidence,
  ReadEvidence,
  SittingEvidence,
  StudentEvidence,
  VoidedEvidence,
} from './queries/evidenceTypes';
export type { PageClass } from './queries/heldClass';
export { type OralReadingView, oralReadingView } from './queries/oralReadingView';
export { pendingVoidOf } from './queries/pendingVoid';
export { currentReadCuts, pinnedReadCuts } from './queries/readCuts';
export { type ReadingSheetInput, renderReadingSheet } from './queries/readingSheet';
export {
  type SittingResultRead,
  sittingResultOf,
  sittingResultsOf,
} from './queries/sittingResultOf';
export { STAFF_REACH, STAFF_READERS } from './queries/staffReach';
export { teacherWordLists } from './queries/teacherWordLists';
export { hasVoidedAttempt, studentOfAttempt } from './queries/voidedAttempts';
export {
  dayIn,
  type OpenTrigger,
  type WindowCalendarState,
  type WindowStatus,
  windowCalendarState,
} from './queries/windowState';
export { type WordListReadView, wordListReadView } from './queries/wordListReadView';
export { renderWordListSheet, type WordListSheetInput } from './queries/wordListSheet';
export { OralReadingSchema } from './schemas/orfSchemas';
export { bandFields, literals as enumOf, WindowSchema } from './schemas/readSchemas';
export {
  MeasureCompositeSchema,
  MeasureItemReviewSchema,
  MeasureResultSchema,
} from './schemas/sittingSchemas';
