import { BigintId, DateTime, SchoolDay } from '@qiraa/http-kit';
import { Type } from 'typebox';

export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9._:-]{8,128}$';

export const SendHeaders = Type.Object({
  'x-idempotency-key': Type.String({
    pattern: IDEMPOTENCY_KEY_PATTERN,
    description: 'one key per distinct body (8-128 of A-Z a-z 0-9 . _ : -); resend the same body with the same key',
  }),
});

export const SendBody = Type.Object(
  {
    classId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'a class (exactly one of classId, groupId)' }),
    ),
    groupId: Type.Optional(Type.String({ format: 'uuid', description: 'a support group' })),
    skillId: Type.Optional(
      Type.String({
        pattern: '^[a-z][a-z_]{0,63}$',
        description: 'a catalog skill; absent: the children’s current skills',
      }),
    ),
    untilDate: SchoolDay,
    untilTime: Type.Optional(
      Type.String({
        pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
        description: 'HH:MM in the organization’s time zone; required when untilDate is today',
      }),
    ),
    onBehalfOfTeacherUserId: Type.Optional(BigintId),
  },
  { additionalProperties: false },
);

export const SendResponse = Type.Object({
  sendId: Type.String({ format: 'uuid' }),
  teacherUserId: BigintId,
  sentByUserId: BigintId,
  classId: Type.Union([Type.String(), Type.Null()]),
  groupId: Type.Union([Type.String(), Type.Null()]),
  skillId: Type.Union([Type.String(), Type.Null()]),
  studentIds: Type.Array(BigintId),
  until: DateTime,
  createdAt: DateTime,
});
