/** Permission tokens: the spec's eight, plus two read scopes for the principal and the manager. */
export const PERMISSIONS = [
  'SUPER_ADMIN',
  'MANAGE_ORG',
  'RUN_BACKOFFICE',
  'MANAGE_CLASS_STUDENTS',
  'VIEW_OWN_CLASSES',
  'RECORD_TEACHER_ACTION',
  'VIEW_OWN_CHILDREN',
  'VIEW_PARENT_REPORTS',
  'VIEW_SCHOOL',
  'VIEW_ORGANIZATION',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const PERSONAS = ['ADMIN', 'TEACHER', 'PARENT', 'PRINCIPAL', 'MANAGER', 'STUDENT'] as const;
export type Persona = (typeof PERSONAS)[number];

/**
 * The one table of permission sets (docs/identity.md shows it). An ADMIN without an organization is the
 * super-scope administrator and alone holds SUPER_ADMIN.
 */
export function permissionsFor(persona: Persona, organizationId: string | null): Permission[] {
  switch (persona) {
    case 'ADMIN':
      return organizationId === null
        ? ['SUPER_ADMIN', 'MANAGE_ORG', 'RUN_BACKOFFICE', 'MANAGE_CLASS_STUDENTS', 'VIEW_PARENT_REPORTS']
        : ['MANAGE_ORG', 'RUN_BACKOFFICE', 'MANAGE_CLASS_STUDENTS', 'VIEW_PARENT_REPORTS'];
    case 'TEACHER':
      return ['VIEW_OWN_CLASSES', 'RECORD_TEACHER_ACTION', 'MANAGE_CLASS_STUDENTS'];
    case 'PRINCIPAL':
      return ['VIEW_SCHOOL'];
    case 'MANAGER':
      return ['VIEW_ORGANIZATION'];
    case 'PARENT':
      return ['VIEW_OWN_CHILDREN', 'VIEW_PARENT_REPORTS'];
    case 'STUDENT':
      return [];
  }
}
