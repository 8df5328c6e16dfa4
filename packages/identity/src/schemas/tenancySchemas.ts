import { PersonNameInput } from '@qiraa/kernel';
import { type Static, Type } from 'typebox';
import { type StudentGender, StudentGenderSchema } from '../engine/studentGender';
import { ClassCode, ClassId, Email, FullNameAr, OrganizationId, Password, QuickCode, SchoolId, UserId } from '.';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Country = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, e.g. JO or PS' });

export const OrganizationBody = Type.Object({
  name: Name,
  slug: Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 63, description: 'lowercase slug' }),
  country: Country,
  defaultLocale: Type.String({ pattern: '^[a-z]{2,3}(-[A-Z]{2})?$', description: 'locale tag, e.g. ar-JO' }),
});
export const OrgResponse = Type.Object({ id: OrganizationId, ...OrganizationBody.properties });

export const SchoolBody = Type.Object({ organizationId: OrganizationId, name: Name, country: Country });
export const SchoolResponse = Type.Object({ id: SchoolId, ...SchoolBody.properties });

export const ClassBody = Type.Object({
  schoolId: SchoolId,
  name: Name,
  grade: Type.Integer({ minimum: 1, maximum: 4 }),
  academicYear: Type.String({ pattern: '^\\d{4}-\\d{4}$', description: 'YYYY-YYYY, consecutive years' }),
});
export const ClassResponse = Type.Object(
  {
    id: ClassId,
    schoolId: SchoolId,
    name: Name,
    grade: Type.Integer({ minimum: 1, maximum: 4 }),
    academicYear: Type.String(),
    loginCode: ClassCode,
    loginCodeExpiresAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'ClassResponse' },
);
export const ClassParams = Type.Object({ classId: ClassId });

const adult = { email: Email, password: Password, fullNameAr: FullNameAr };
/** POST /api/users: one branch per persona, keyed on primaryPersona. */
export type NewUser =
  | { primaryPersona: 'ADMIN'; email: string; password: string; fullNameAr: string; organizationId?: string }
  | {
      primaryPersona: 'TEACHER' | 'PARENT' | 'MANAGER';
      email: string;
      password: string;
      fullNameAr: string;
      organizationId: string;
    }
  | {
      primaryPersona: 'PRINCIPAL';
      email: string;
      password: string;
      fullNameAr: string;
      organizationId: string;
      schoolId: string;
    }
  | { primaryPersona: 'STUDENT'; fullNameAr: string; classId: string; quickCode?: string; gender?: StudentGender };

export const CreateUserBody = Type.Unsafe<NewUser>({
  type: 'object',
  required: ['primaryPersona'],
  discriminator: { propertyName: 'primaryPersona' },
  oneOf: [
    Type.Object({ primaryPersona: Type.Literal('ADMIN'), ...adult, organizationId: Type.Optional(OrganizationId) }),
    Type.Object({ primaryPersona: Type.Literal('TEACHER'), ...adult, organizationId: OrganizationId }),
    Type.Object({ primaryPersona: Type.Literal('PARENT'), ...adult, organizationId: OrganizationId }),
    Type.Object({ primaryPersona: Type.Literal('MANAGER'), ...adult, organizationId: OrganizationId }),
    Type.Object({
      primaryPersona: Type.Literal('PRINCIPAL'),
      ...adult,
      organizationId: OrganizationId,
      schoolId: SchoolId,
    }),
    Type.Object({
      primaryPersona: Type.Literal('STUDENT'),
      fullNameAr: PersonNameInput,
      classId: ClassId,
      quickCode: Type.Optional(QuickCode),
      gender: Type.Optional(StudentGenderSchema),
    }),
  ],
});
export const UserCreatedResponse = Type.Object({ id: UserId });
export type ClassBodyT = Static<typeof ClassBody>;
