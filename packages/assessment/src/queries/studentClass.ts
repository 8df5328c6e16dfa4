import { newestActiveClassOfStudent, type StudentClassPlacement } from '@qiraa/identity';

export type StudentClass = StudentClassPlacement;

/** The student's active class (the newest enrolment if there were ever two), or null. */
export const studentClassOf = newestActiveClassOfStudent;
