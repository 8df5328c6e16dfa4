import type { Catalog } from '../queries/catalogTypes';
import type { ScaffoldPromptRow } from '../schemas/importBody';
import type { RejectReason } from './rejectReasons';

/** A scaffold prompt names a catalog sub-skill. */
export const promptRowReason = (row: ScaffoldPromptRow, catalog: Catalog): RejectReason | null =>
  catalog.subSkillById.has(row.sub_skill_id) ? null : 'unknown_sub_skill';
