import type { AnySql } from '@qiraa/db';
import type { ScaffoldTier } from '../rules/ruleSet';

/**
 * What clustering reads of one student (the input port). The decisions adapter (queries/decisionsInputs.ts) fills
 * it from decisions' exports; the engine and the commands never read another context's tables.
 */
export interface StudentClusterInput {
  studentId: number;
  /** The open (or escalated) acute_regression alerts (CLU-01); [] when none. */
  acuteRegressionAlertIds: string[];
  /** The student's current profile, or null when none was resolved. */
  profile: { dataIncomplete: boolean; doNotDecideYet: boolean } | null;
  /** The current bundle recommendation, or null when none exists. */
  recommendation: {
    outcome: 'recommended' | 'blocked_insufficient_evidence' | 'no_catalog_bundle';
    bundleId: string | null;
    anchorSkillGroup: string | null;
    scaffoldTier: ScaffoldTier | null;
    sufficientData: boolean;
    /** Which profile and recommendation decisions this input reads (evidence of the generation). */
    recommendationId: string | null;
  } | null;
  /** The weakest skill-status token of the window, the tier fallback of CLU-03; null when none decided. */
  weakestStatus: 'beginning' | 'developing' | 'on_track' | 'strong' | null;
}

/** One piece of evidence of the student preview's tier breakdown. */
export interface TierEvidence {
  skillId: string;
  /** The task type the evidence came from: `digital` (screening questions) or an oral cell. */
  taskType: string;
  /** The measure's level (1..4) or the oral read's band token. */
  measureLevel: 1 | 2 | 3 | 4 | null;
  band: 'beginning' | 'developing' | 'on_track' | 'strong' | null;
}

export interface ClusterInputsPort {
  /** Every active student of the class, ascending student id. `sql` may be a transaction. */
  studentsOfClass(sql: AnySql, classId: string): Promise<StudentClusterInput[]>;
  /** The evidence of the student's newest decided window (for the preview). */
  tierEvidenceOf(sql: AnySql, studentId: number): Promise<TierEvidence[]>;
}
