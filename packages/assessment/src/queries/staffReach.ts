import type { Permission, StudentReach } from '@qiraa/identity';

/** Who reads a child's oral attempts and word lists: staff, never a parent or the child (no numbers for them). */
export const STAFF_READERS: readonly Permission[] = [
  'SUPER_ADMIN',
  'MANAGE_ORG',
  'VIEW_OWN_CLASSES',
  'VIEW_SCHOOL',
  'VIEW_ORGANIZATION',
];

/** The relations to a child that let staff read its oral attempts. */
export const STAFF_REACH: readonly StudentReach[] = ['super', 'admin', 'teacher', 'principal', 'manager'];
