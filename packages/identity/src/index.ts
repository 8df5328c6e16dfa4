export { assignClassTeacher } from './commands/classTeachers';
export { createClass } from './commands/createClass';
export { createOrganization } from './commands/createOrganization';
export { createSchool } from './commands/createSchool';
export { createUser, type NewUser } from './commands/createUser';
export { enrollStudent } from './commands/enrollStudent';
export { importRoster, type RosterImportOptions } from './commands/importRoster';
export { linkParent } from './commands/parentLinks';
export { registerFirstAdmin } from './commands/registerFirstAdmin';
export { identityContext } from './context';
export { type Caller, callerOf, holds, isSuperAdmin, type TargetCheck } from './engine/caller';
export { PERMISSIONS, PERSONAS, type Permission, type Persona, permissionsFor } from './engine/permissions';
export type { RosterReport } from './engine/rosterReport';
export type { RosterSource } from './engine/rosterSource';
export {
  type Gendered,
  type GenderForm,
  genderFormOf,
  inGender,
  STUDENT_GENDERS,
  type StudentGender,
  StudentGenderSchema,
} from './engine/studentGender';
export { organizationExists } from './queries/organizationExists';
export {
  activeClassIdsOfStudentQuery,
  activeClassRosterQuery,
  activeEnrolmentsQuery,
  activeMembershipsQuery,
  activeSchoolRosterQuery,
  activeStudentsQuery,
  classSchoolsQuery,
  type IdentityFragment,
  learnerPlacementJsonQuery,
  organizationsInTimeZoneQuery,
  organizationTimeZoneQuery,
  organizationTimeZonesQuery,
  organizationTodayQuery,
  studentsWithTimeZoneQuery,
  taughtClassesQuery,
  taughtStudentsQuery,
  userNamesQuery,
  userOrganizationQuery,
} from './queries/readFragments';
export {
  activeClassesOfStudent,
  activeClassFirstNames,
  activeOrganizations,
  activeStudentName,
  activeTimeZones,
  type ChildPlacement,
  type ClassRecord,
  childrenOfParent,
  classPlacement,
  classRecord,
  classRoster,
  classTeachers,
  newestActiveClassOfStudent,
  organizationAdmins,
  organizationTimeZone,
  parentsOfStudent,
  type StudentClassPlacement,
  schoolOrganization,
  schoolsOfOrganization,
  studentClassForTeacher,
  studentOrganizations,
  studentPlacement,
  studentsInOrganization,
  taughtClassesOfStudents,
  teacherPlacement,
  teachersOfStudent,
  teachesClass,
  userName,
  userNames,
  userOrganization,
  userStanding,
  userTimeZone,
} from './queries/reads';
export { classInScope, inOrganizationOr404 } from './queries/scope';
export { studentGender } from './queries/studentGender';
export { type ReachedStudent, type StudentReach, studentReach } from './queries/studentReach';
export { reachOr404, requestInput, type TenantKind, tenantTarget } from './queries/tenantTarget';
export { resolveJwtSecret } from './routes/jwtSecret';
export { OrganizationId } from './schemas';
