import { loadCatalog } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { childGenderOf, lookupKind, renderKind } from '@qiraa/notifications';
import type { TrainingAlertKind } from '../rules/alertRules';

/** The notification kind each alert kind raises (spec: Events, In-app notification kinds). */
export const NOTIFICATION_KIND_OF = {
  no_progress_at_level: 'training_no_progress',
  support_review_suggested: 'training_support_review_suggested',
} as const satisfies Record<TrainingAlertKind, string>;

export interface AlertFacts {
  alertId: string;
  studentId: number;
  studentName: string;
  skillId: string;
  levelNumber: number;
  kind: TrainingAlertKind;
  daysAtLevel: number;
}

/** The catalog labels of a skill and a training level (the ids themselves when the catalog lacks them). */
export async function labelsOf(sql: AnySql, skillId: string, levelNumber: number) {
  const catalog = await loadCatalog(sql);
  return {
    skillLabelAr: catalog.skills.find((s) => s.id === skillId)?.labelAr ?? skillId,
    levelNameAr: catalog.trainingLevels.find((l) => l.number === levelNumber)?.nameAr ?? String(levelNumber),
  };
}

/**
 * The notification payload of an alert for one of the child's classes (spec: studentId as a numeric string,
 * classId, studentName, alertId, skillId, skillLabelAr, levelNumber, levelNameAr; daysAtLevel on the long stay,
 * `training_support_review_suggested`, the one kind whose schema carries it).
 */
export async function payloadOf(sql: AnySql, a: AlertFacts, classId: string): Promise<Record<string, unknown>> {
  const labels = await labelsOf(sql, a.skillId, a.levelNumber);
  return {
    studentId: String(a.studentId),
    classId,
    studentName: a.studentName,
    alertId: a.alertId,
    skillId: a.skillId,
    ...labels,
    levelNumber: a.levelNumber,
    ...(a.kind === 'support_review_suggested' ? { daysAtLevel: Math.max(1, a.daysAtLevel) } : {}),
  };
}

/**
 * The alert row's titleAr and messageAr: the same catalog wording its notification carries, in the form the
 * child's gender needs (one source of wording; the catalog's templates are language-safety checked).
 */
export async function wordingOf(
  sql: AnySql,
  a: AlertFacts,
  cache: WordingCache = newWordingCache(),
): Promise<{ titleAr: string; messageAr: string }> {
  const kindName = NOTIFICATION_KIND_OF[a.kind];
  let kind = cache.kinds.get(kindName);
  if (!kind) {
    kind = lookupKind(sql, kindName);
    cache.kinds.set(kindName, kind);
  }
  const payload = await payloadOf(sql, a, 'class');
  let gender = cache.genders.get(a.studentId);
  if (!gender) {
    gender = childGenderOf(sql, payload);
    cache.genders.set(a.studentId, gender);
  }
  const { titleAr, bodyAr } = renderKind(await kind, payload, await gender);
  return { titleAr, messageAr: bodyAr };
}

/** One list's catalog rows and children's genders, read once each however many alerts share them. */
export interface WordingCache {
  kinds: Map<string, ReturnType<typeof lookupKind>>;
  genders: Map<number, ReturnType<typeof childGenderOf>>;
}
export const newWordingCache = (): WordingCache => ({ kinds: new Map(), genders: new Map() });
