import type { OfType } from '@qiraa/eventstore';
import { defineProjection } from '@qiraa/projections';
import { TRAINING_LEVEL_MOVED, TRAINING_LEVEL_STARTED, type TrainingEvent } from '../events';

type Row = Record<string, unknown> & { stream_version: string };

/**
 * `trn_levels`: the current level per student, academic year and skill. The batch is folded per key in log
 * order; keys started in the batch upsert whole rows, keys only moved update the move columns. A row moves
 * only to a higher stream version, so a batch applied twice (inline, then the runner) changes nothing.
 */
export const levelsProjection = defineProjection<
  OfType<TrainingEvent, typeof TRAINING_LEVEL_STARTED | typeof TRAINING_LEVEL_MOVED>
>({
  name: 'training_levels',
  version: 1,
  handles: [TRAINING_LEVEL_STARTED, TRAINING_LEVEL_MOVED],
  tables: ['trn_levels'],
  async applyBatch({ sql, table }, events) {
    const full = new Map<string, Row>();
    const moved = new Map<string, Row>();
    for (const e of events) {
      const d = e.data;
      const key = `${d.studentId}|${d.academicYear}|${d.skillId}`;
      const version = e.streamVersion.toString();
      if (e.type === TRAINING_LEVEL_STARTED) {
        const s = e.data;
        full.set(key, {
          student_id: s.studentId,
          skill_id: s.skillId,
          academic_year: s.academicYear,
          organization_id: s.organizationId,
          measure_code: s.measureCode,
          level: s.level,
          since: s.since,
          started_from: s.startedFrom,
          started_at: s.at,
          last_move_id: null,
          last_move_direction: null,
          last_move_at: null,
          last_move_from_level: null,
          seed_id: s.seedId,
          level_id: s.moveId,
          stream_version: version,
        });
        moved.delete(key);
        continue;
      }
      const m = e.data;
      const change = {
        level: m.toLevel,
        since: m.since,
        last_move_id: m.moveId,
        last_move_direction: m.direction,
        last_move_at: m.at,
        last_move_from_level: m.fromLevel,
        level_id: m.moveId,
        stream_version: version,
        ...(m.seedId ? { seed_id: m.seedId } : {}),
      };
      const started = full.get(key);
      if (started) full.set(key, { ...started, ...change });
      else
        moved.set(key, {
          ...(moved.get(key) ?? {}),
          student_id: m.studentId,
          academic_year: m.academicYear,
          skill_id: m.skillId,
          seed_id: null,
          ...change,
        });
    }
    const t = sql(table('trn_levels'));
    if (full.size > 0) {
      await sql`
        insert into ${t} as l (student_id, skill_id, academic_year, organization_id, measure_code, level, since,
          started_from, started_at, last_move_id, last_move_direction, last_move_at, last_move_from_level, seed_id,
          level_id, stream_version)
        select r.student_id, r.skill_id, r.academic_year, r.organization_id, r.measure_code, r.level, r.since,
               r.started_from, r.started_at, r.last_move_id, r.last_move_direction, r.last_move_at,
               r.last_move_from_level, r.seed_id, r.level_id, r.stream_version
        from jsonb_to_recordset(${sql.json([...full.values()] as never)}) as r(student_id bigint, skill_id text,
          academic_year text, organization_id text, measure_code text, level smallint, since date,
          started_from text, started_at timestamptz, last_move_id uuid, last_move_direction text,
          last_move_at timestamptz, last_move_from_level smallint, seed_id uuid, level_id uuid, stream_version bigint)
        on conflict (student_id, academic_year, skill_id) do update set
          organization_id = excluded.organization_id, measure_code = excluded.measure_code, level = excluded.level,
          since = excluded.since, started_from = excluded.started_from, started_at = excluded.started_at,
          last_move_id = excluded.last_move_id, last_move_direction = excluded.last_move_direction,
          last_move_at = excluded.last_move_at, last_move_from_level = excluded.last_move_from_level,
          seed_id = excluded.seed_id, level_id = excluded.level_id, stream_version = excluded.stream_version
        where l.stream_version < excluded.stream_version`;
    }
    if (moved.size > 0) {
      await sql`
        update ${t} as l set level = r.level, since = r.since, last_move_id = r.last_move_id,
          last_move_direction = r.last_move_direction, last_move_at = r.last_move_at,
          last_move_from_level = r.last_move_from_level, level_id = r.level_id,
          seed_id = coalesce(r.seed_id, l.seed_id), stream_version = r.stream_version
        from jsonb_to_recordset(${sql.json([...moved.values()] as never)}) as r(student_id bigint, skill_id text,
          academic_year text, level smallint, since date, last_move_id uuid, last_move_direction text,
          last_move_at timestamptz, last_move_from_level smallint, seed_id uuid, level_id uuid, stream_version bigint)
        where l.student_id = r.student_id and l.academic_year = r.academic_year and l.skill_id = r.skill_id
          and l.stream_version < r.stream_version`;
    }
  },
});
