/** Shared OpenAPI text of the routes that change an open oral reading. */
export const changeOralReadingNote =
  'A teacher of one of the child’s classes with RECORD_TEACHER_ACTION; other callers of the organization 403; ' +
  'another organization’s or an unknown reading 404. 409 `voided` when the reading was voided, 409 ' +
  '`already_stopped` after its stop (both checked before the body).';
