export const GRADES = [1, 2, 3, 4] as const;
export type Grade = (typeof GRADES)[number];
export const WINDOWS = ['BOY', 'MOY', 'EOY'] as const;
export type WindowCode = (typeof WINDOWS)[number];
export const CONTENT_ROLES = ['screening', 'target_training', 'bridge_practice'] as const;
export type ContentRole = (typeof CONTENT_ROLES)[number];
export const CONTENT_PURPOSES = ['diagnostic', 'training', 'bridge'] as const;
export type ContentPurpose = (typeof CONTENT_PURPOSES)[number];
export const CONTENT_KINDS = ['item', 'content_bundle', 'screening_form', 'scaffold_prompt', 'word_list'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];
export const TEACHER_CELLS = ['digital', 'oral_text', 'oral_familiar_words', 'oral_pseudowords'] as const;
export type TeacherCell = (typeof TEACHER_CELLS)[number];
export const SECTION_KEYS = ['text1', 'text2', 'words', 'spelling', 'roots'] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

/** The service sets content_purpose from content_role; an import never chooses it. */
export const purposeOf = (role: ContentRole): ContentPurpose =>
  role === 'screening' ? 'diagnostic' : role === 'target_training' ? 'training' : 'bridge';

export interface CatalogGrade {
  grade: Grade;
  nameAr: string;
}
export interface CatalogWindow {
  code: WindowCode;
  nameAr: string;
  ordinal: number;
}
export interface CatalogMacroDomain {
  id: string;
  labelAr: string;
}
export interface CatalogSkill {
  id: string;
  macroDomainId: string;
  labelAr: string;
}
export interface CatalogSubSkill {
  id: string;
  skillId: string;
  labelAr: string;
  gradeMin: number;
  gradeMax: number;
}
export interface CatalogMeasure {
  measureCode: string;
  labelAr: string;
  skillId: string;
  gradeMin: number;
  gradeMax: number;
  mode: 'digital' | 'oral';
  teacherCell: TeacherCell;
  /** Presentation group of a digital measure's questions; null for oral measures. */
  sectionKey: SectionKey | null;
  /** Questions a screening form holds for this digital measure; null for oral measures. */
  formItemCount: number | null;
  minutesPerStudent: number;
  scoringStatus: 'normed' | 'provisional';
}
export interface CatalogItemPattern {
  code: string;
  labelAr: string;
  needsPassage: boolean;
}
export interface CatalogTrainingLevel {
  number: 1 | 2 | 3 | 4;
  nameAr: string;
}
export interface CatalogWordListCell {
  grade: Grade;
  skillId: string;
  minWords: number;
  maxWords: number;
}

/** A support bundle (release 2026.2): the steps a profile's bundle recommendation names (docs/decisions-profiles.md). */
export interface CatalogSupportBundle {
  id: string;
  labelAr: string;
  /** The decision rule set's profile code (PR2-nn) the bundle serves. */
  profileCode: string;
  anchorMacroDomainId: string;
  gradeMin: number;
  gradeMax: number;
  steps: { ordinal: number; stepCode: string; labelAr: string; skillId: string }[];
}

/** Every catalog, in catalog order; read once per pool (catalogs change only by migration). */
export interface Catalog {
  version: string;
  grades: CatalogGrade[];
  windows: CatalogWindow[];
  macroDomains: CatalogMacroDomain[];
  skills: CatalogSkill[];
  subSkills: CatalogSubSkill[];
  measures: CatalogMeasure[];
  itemPatterns: CatalogItemPattern[];
  trainingLevels: CatalogTrainingLevel[];
  wordListCells: CatalogWordListCell[];
  supportBundles: CatalogSupportBundle[];
  /** Lookups by id. */
  skillById: ReadonlyMap<string, CatalogSkill>;
  subSkillById: ReadonlyMap<string, CatalogSubSkill>;
  measureByCode: ReadonlyMap<string, CatalogMeasure>;
  patternByCode: ReadonlyMap<string, CatalogItemPattern>;
}

export const inGradeRange = (x: { gradeMin: number; gradeMax: number }, grade: number) =>
  grade >= x.gradeMin && grade <= x.gradeMax;
