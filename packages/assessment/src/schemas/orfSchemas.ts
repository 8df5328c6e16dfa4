import { BigintId } from '@qiraa/http-kit';
import { Type } from 'typebox';
import { ORF_MARKS } from '../events/orfEvents';
import { bandFields, literals, WindowSchema } from './readSchemas';

export const OrfIdParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'the oral reading id' }) });

export const StartOrfBody = Type.Object(
  {
    studentId: BigintId,
    passageId: Type.String({ minLength: 1, maxLength: 64, description: 'an operational passage of the child’s grade' }),
  },
  { additionalProperties: false },
);

export const MarkOrfBody = Type.Object(
  {
    wordIndex: Type.Integer({ minimum: 0, maximum: 100_000, description: '0-based index of the word in the passage' }),
    mark: literals(ORF_MARKS, {
      description:
        'error (read wrong, skipped, or given after a 3-second hesitation), self_correction (counted ' +
        'correct), clear (removes the word’s mark); the latest mark of a word counts',
    }),
  },
  { additionalProperties: false },
);

export const StopOrfBody = Type.Object(
  {
    lastWordIndex: Type.Integer({
      minimum: 0,
      maximum: 100_000,
      description: '0-based index of the last word reached',
    }),
    elapsedSeconds: Type.Integer({
      minimum: 0,
      maximum: 100_000,
      description: 'seconds read, 1 up to the reading time (422 orf_elapsed_out_of_range otherwise)',
    }),
  },
  { additionalProperties: false },
);

const nullableInt = (description: string) => Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description });

export const OralReadingSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  studentId: Type.Integer(),
  classId: Type.String(),
  grade: Type.Integer({ minimum: 1, maximum: 4 }),
  academicYear: Type.String(),
  window: WindowSchema,
  passageId: Type.String(),
  passageVersion: Type.Integer(),
  titleAr: Type.Union([Type.String(), Type.Null()]),
  words: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: 'the passage’s words in reading order (index 0 first): what the teacher marks',
  }),
  wordCount: Type.Integer({ minimum: 1 }),
  durationSeconds: Type.Integer({ minimum: 1, description: 'the reading time pinned at the start (60 s)' }),
  status: literals(['in_progress', 'stopped'] as const),
  voided: Type.Boolean(),
  startedAt: Type.String({ format: 'date-time' }),
  startedBy: Type.Integer(),
  marks: Type.Array(Type.Object({ wordIndex: Type.Integer({ minimum: 0 }), mark: literals(ORF_MARKS) }), {
    description: 'the latest mark of each marked word (a cleared word shows `clear`)',
  }),
  stoppedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastWordIndex: nullableInt('null until stopped'),
  elapsedSeconds: nullableInt('null until stopped'),
  attempted: nullableInt('last word index + 1'),
  errors: nullableInt('words up to the last one whose latest mark is error'),
  correct: nullableInt('attempted - errors'),
  ...bandFields,
});
