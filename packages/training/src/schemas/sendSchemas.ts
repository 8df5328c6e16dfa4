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

export const SendParams = Type.Object({ sendId: Type.String({ format: 'uuid' }) });

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const SendProgressResponse = Type.Object({
  send: SendResponse,
  state: Type.Unsafe<'open' | 'over'>(
    Type.String({ enum: ['open', 'over'], description: 'open while now is before `until`; then over' }),
  ),
  summary: Type.Object({
    recipients: Type.Integer(),
    reached: Type.Integer({ description: 'recipients whose queue served the sent practice in the window' }),
    answered: Type.Integer({ description: 'answers given to the sent practice in the window, all recipients' }),
  }),
  recipients: Type.Array(
    Type.Object({
      studentId: BigintId,
      fullNameAr: Type.String(),
      reached: Type.Boolean(),
      answered: Type.Integer(),
      correct: Type.Integer(),
      firstAnsweredAt: Nullable(DateTime),
      lastAnsweredAt: Nullable(DateTime),
    }),
  ),
});
