import { Type } from 'typebox';

/**
 * The child's grammatical gender: a closed code held on the student, optional (absent = unknown). It only
 * picks Arabic word forms for text that addresses or describes the child.
 */
export const STUDENT_GENDERS = ['female', 'male'] as const;
export type StudentGender = (typeof STUDENT_GENDERS)[number];

export const StudentGenderSchema = Type.Unsafe<StudentGender>(
  Type.String({
    enum: [...STUDENT_GENDERS],
    description: 'the child’s grammatical gender, for Arabic agreement; leave out when unknown',
  }),
);

/** The three forms a child-facing or child-describing text comes in: unknown gender gets the neutral one. */
export type GenderForm = StudentGender | 'neutral';
export type Gendered<T = string> = Readonly<Record<GenderForm, T>>;

export const genderFormOf = (gender: StudentGender | null | undefined): GenderForm => gender ?? 'neutral';

/** The form of `texts` that agrees with the child. */
export const inGender = <T>(texts: Gendered<T>, gender: StudentGender | null | undefined): T =>
  texts[genderFormOf(gender)];
