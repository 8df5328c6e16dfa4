import { skillsQuery, trainingLevelsQuery } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';

const ROLE_LABELS_AR = {
  ordinary: 'أسئلة التدريب',
  retry: 'المحاولة الثانية',
  support: 'خطوة الدعم',
  exit: 'سؤال الختام',
} as const;
type Role = keyof typeof ROLE_LABELS_AR;
const ROLES = Object.keys(ROLE_LABELS_AR) as Role[];

/**
 * `trainingGroups` of a training day for the session report (spec: Session detail): the day's answers grouped
 * by target (targetSkillId, targetLabelAr, levelNameAr), then by role `ordinary` | `retry` | `support` | `exit`
 * (labelAr, answered, correct). Null when the day is unknown. Roles without answers are left out.
 */
export async function trainingGroupsOf(sql: AnySql, dayId: string) {
  const rows = await sql<
    {
      skill_id: string;
      label_ar: string;
      level: number;
      name_ar: string;
      role: Role;
      answered: number;
      correct: number;
    }[]
  >`
    select a.skill_id, k.label_ar, a.level, tl.name_ar, a.role, count(*)::int as answered,
           count(*) filter (where a.correct)::int as correct
    from trn_answers a
    join (${skillsQuery(sql)}) k on k.id = a.skill_id
    join (${trainingLevelsQuery(sql)}) tl on tl.number = a.level
    where a.day_id = ${dayId}
    group by a.skill_id, k.label_ar, k.ordinal, a.level, tl.name_ar, a.role
    order by k.ordinal, a.level`;
  const [day] = await sql`select 1 from trn_days where day_id = ${dayId}`;
  if (!day) return null;
  const targets = new Map<
    string,
    {
      targetSkillId: string;
      targetLabelAr: string;
      levelNameAr: string;
      groups: { role: Role; labelAr: string; answered: number; correct: number }[];
    }
  >();
  for (const r of rows) {
    const key = `${r.skill_id}|${r.level}`;
    const target = targets.get(key) ?? {
      targetSkillId: r.skill_id,
      targetLabelAr: r.label_ar,
      levelNameAr: r.name_ar,
      groups: [],
    };
    target.groups.push({ role: r.role, labelAr: ROLE_LABELS_AR[r.role], answered: r.answered, correct: r.correct });
    targets.set(key, target);
  }
  for (const t of targets.values()) t.groups.sort((a, b) => ROLES.indexOf(a.role) - ROLES.indexOf(b.role));
  return [...targets.values()];
}
