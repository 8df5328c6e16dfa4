import type { ClassRow } from './scope';

export const toClassResponse = (c: ClassRow) => ({
  id: c.id,
  schoolId: c.school_id,
  name: c.name,
  grade: c.grade,
  academicYear: c.academic_year,
  loginCode: c.login_code,
  loginCodeExpiresAt: c.login_code_expires_at.toISOString(),
});
