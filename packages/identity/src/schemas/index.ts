import { BigintId } from '@qiraa/http-kit';
import { Type } from 'typebox';
import { PERMISSIONS, PERSONAS, type Permission, type Persona } from '../engine/permissions';

export const Email = Type.String({ format: 'email', maxLength: 254 });
// At least 8 and at most 128 characters, no composition rules (OWASP / NIST 800-63B).
export const Password = Type.String({ minLength: 8, maxLength: 128 });
export const FullNameAr = Type.String({ minLength: 1, maxLength: 120 });
export const OrganizationId = Type.String({ pattern: '^org_[A-Za-z0-9]{12}$' });
export const SchoolId = Type.String({ pattern: '^sch_[A-Za-z0-9]{12}$' });
export const ClassId = Type.String({ pattern: '^cls_[A-Za-z0-9]{12}$' });
export const UserId = BigintId;
export const QuickCode = Type.String({ pattern: '^(0[1-9]|[1-9][0-9])$', description: 'two digits, 01-99' });
export const ClassCode = Type.String({ pattern: '^[A-Z2-9]{8}$', description: 'class login code' });
export const PersonaSchema = Type.Unsafe<Persona>(Type.String({ enum: [...PERSONAS] }));
export const PermissionSchema = Type.Unsafe<Permission>(Type.String({ enum: [...PERMISSIONS] }));

export const AuthTokensResponse = Type.Object(
  {
    accessToken: Type.String(),
    refreshToken: Type.String(),
    expiresIn: Type.Integer({ description: 'seconds; 900' }),
    tokenType: Type.Literal('Bearer'),
  },
  { $id: 'AuthTokensResponse' },
);

export const MeResponse = Type.Object({
  id: UserId,
  email: Type.Union([Email, Type.Null()]),
  primaryPersona: PersonaSchema,
  organizationId: Type.Union([Type.String(), Type.Null()]),
  permissions: Type.Array(PermissionSchema),
  classIds: Type.Array(Type.String()),
  features: Type.Object({ teacherV3: Type.Boolean() }),
});

export const RegisterBody = Type.Object({
  email: Email,
  password: Password,
  fullNameAr: FullNameAr,
  primaryPersona: Type.Literal('ADMIN'),
});

export const RegisterResponse = Type.Object({
  user: Type.Object({
    id: UserId,
    email: Email,
    primaryPersona: Type.Literal('ADMIN'),
    organizationId: Type.Null(),
  }),
  tokens: Type.Ref('AuthTokensResponse'),
});

export const LoginBody = Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 128 }) });
export const RefreshBody = Type.Object({ refreshToken: Type.String({ minLength: 16, maxLength: 128 }) });
