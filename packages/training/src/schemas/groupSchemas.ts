import { BigintId, DateTime } from '@qiraa/http-kit';
import { Type } from 'typebox';

/** At most this many children in one support group (a small-group size; docs/training-alerts.md). */
export const GROUP_MAX_MEMBERS = 40;

/** The teacher's own label for the group: Arabic or Latin letters, digits and single spaces; no punctuation. */
export const GroupName = Type.String({
  minLength: 1,
  maxLength: 40,
  pattern: '^[\\p{L}\\p{M}\\p{Nd}]+(?: [\\p{L}\\p{M}\\p{Nd}]+)*$',
  description: 'the teacher’s label for the group (letters, digits and single spaces, up to 40 characters)',
});

const Members = Type.Array(BigintId, { minItems: 1, maxItems: GROUP_MAX_MEMBERS, uniqueItems: true });

export const CreateGroupBody = Type.Object({ nameAr: GroupName, studentIds: Members }, { additionalProperties: false });
export const SetMembersBody = Type.Object({ studentIds: Members }, { additionalProperties: false });
export const GroupIdParams = Type.Object({ groupId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

export const SupportGroup = Type.Object({
  groupId: Type.String({ format: 'uuid' }),
  nameAr: Type.String(),
  ownerUserId: BigintId,
  studentIds: Type.Array(BigintId),
  createdAt: DateTime,
});
export const SupportGroupList = Type.Object({ items: Type.Array(SupportGroup) });
