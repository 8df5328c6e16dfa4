import { BigintId } from '@qiraa/http-kit';
import { Type } from 'typebox';
import { bandFields, literals, WindowSchema } from './readSchemas';

const WordListCellSchema = literals(['oral_familiar_words', 'oral_pseudowords'] as const);

export const WordListsQuery = Type.Object({ studentId: Type.Optional(BigintId) }, { additionalProperties: false });

const TeacherWordList = Type.Object({
  id: Type.String(),
  externalId: Type.String(),
  version: Type.Integer(),
  scope: literals(['global', 'organization', 'school'] as const),
  grade: Type.Integer({ minimum: 1, maximum: 4 }),
  skillId: Type.String(),
  skillLabelAr: Type.String(),
  cell: Type.Union([WordListCellSchema, Type.Null()], { description: 'the teacher-page cell a read fills' }),
  words: Type.Array(Type.String(), { description: 'in reading order; index 0 is the first word' }),
  wordCount: Type.Integer({ minimum: 1 }),
  timing: Type.Object({
    timed: Type.Boolean(),
    durationSeconds: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: 'the read’s time limit (60 s unless the list names another); null when untimed',
    }),
  }),
  wordsPerRow: Type.Integer({ minimum: 1, description: '5 when the list names none' }),
  readingNoteAr: Type.Union([Type.String(), Type.Null()]),
  assessmentWindow: Type.Union([WindowSchema, Type.Null()], {
    description: 'the window the list serves; null: every window (an all-window list)',
  }),
});

export const TeacherWordListsSchema = Type.Object({
  studentId: Type.Union([Type.Integer(), Type.Null()]),
  grade: Type.Union([Type.Integer(), Type.Null()], { description: 'the child’s class grade (studentId only)' }),
  window: Type.Union([WindowSchema, Type.Null()], {
    description: 'the child’s window: the open one, else the page’s default window (studentId only)',
  }),
  windowOpen: Type.Union([Type.Boolean(), Type.Null()]),
  lists: Type.Array(TeacherWordList),
});

export const WordListReadBody = Type.Object(
  {
    studentId: BigintId,
    wordListId: Type.String({ minLength: 1, maxLength: 64 }),
    errorIndices: Type.Optional(
      Type.Array(Type.Integer({ minimum: 0, maximum: 100_000 }), {
        maxItems: 1000,
        description: '0-based indexes of the words read wrong; a mark past the last word is dropped',
      }),
    ),
    last_word_index: Type.Optional(
      Type.Integer({
        minimum: -1_000_000,
        maximum: 1_000_000,
        description: 'timed lists only: 0-based index of the last word reached (422 when outside the list)',
      }),
    ),
    elapsed_seconds: Type.Optional(
      Type.Integer({
        minimum: -1_000_000,
        maximum: 1_000_000,
        description: 'timed lists only: seconds read, 1 up to the list’s duration',
      }),
    ),
  },
  { additionalProperties: false },
);

export const WordListReadSchema = Type.Object({
  id: Type.String({ format: 'uuid', description: 'the read’s attempt id (stream wlread-<id>)' }),
  studentId: Type.Integer(),
  wordListId: Type.String(),
  wordListVersion: Type.Integer(),
  cell: WordListCellSchema,
  grade: Type.Integer({ minimum: 1, maximum: 4 }),
  window: WindowSchema,
  at: Type.String({ format: 'date-time' }),
  timed: Type.Boolean(),
  attempted: Type.Integer({ minimum: 1, description: 'last word index + 1 (timed), every word (untimed)' }),
  errors: Type.Integer({ minimum: 0 }),
  correct: Type.Integer({ minimum: 0 }),
  droppedMarks: Type.Integer({ minimum: 0, description: 'marks past the last word or outside the list, not counted' }),
  lastWordIndex: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  elapsedSeconds: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  ...bandFields,
});
