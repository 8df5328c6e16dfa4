import { Type } from 'typebox';
import { ClassId, Email, FullNameAr, UserId } from '.';

export const security = [{ bearerAuth: [] }];

/**
 * A user id as a path or body value: a positive integer that also fits the `bigint` column and a JS number
 * exactly (a larger one can name no user; it is refused as 422 rather than reaching the database).
 */
export const UserIdValue = UserId;

export const ClassParams = Type.Object({ classId: ClassId });
export const ClassStudentParams = Type.Object({ classId: ClassId, studentId: UserIdValue });
export const ClassTeacherParams = Type.Object({ classId: ClassId, teacherUserId: UserIdValue });
export const StudentParams = Type.Object({ studentId: UserIdValue });
export const StudentParentParams = Type.Object({ studentId: UserIdValue, parentUserId: UserIdValue });

/** A teacher of a class, as listed to staff. */
export const ClassTeacher = Type.Object({ teacherUserId: UserIdValue, fullNameAr: FullNameAr, email: Email });
/** A parent linked to a child, as listed to staff. */
export const LinkedParent = Type.Object({ parentUserId: UserIdValue, fullNameAr: FullNameAr, email: Email });
