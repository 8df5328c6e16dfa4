import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, permissionDenied } from '@qiraa/http-kit';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { contextFlagsOf, setContextFlags } from '../commands/contextFlags';
import { callerOf } from '../engine/caller';
import type { Permission } from '../engine/permissions';
import { type StudentReach, studentReach } from '../queries/studentReach';
import { reachOr404 } from '../queries/tenantTarget';

const tags = ['identity'];
const security = [{ bearerAuth: [] }];

const Params = Type.Object({ studentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const Body = Type.Object(
  {
    flags: Type.Array(Type.String({ pattern: '^[a-z][a-z_]{1,47}$' }), {
      maxItems: 20,
      uniqueItems: true,
      description: 'the whole set of the child’s context flags, closed codes (an empty list clears them)',
    }),
  },
  { additionalProperties: false },
);
const FlagsResponse = Type.Object({
  studentId: Type.Integer(),
  flags: Type.Array(
    Type.Object({
      code: Type.String(),
      labelAr: Type.String(),
      setAt: Type.String({ format: 'date-time' }),
    }),
  ),
});

const WRITERS: readonly Permission[] = ['SUPER_ADMIN', 'MANAGE_ORG', 'RECORD_TEACHER_ACTION'];
const WRITE_REACH: readonly StudentReach[] = ['super', 'admin', 'teacher'];
const READERS: readonly Permission[] = [
  'SUPER_ADMIN',
  'MANAGE_ORG',
  'VIEW_OWN_CLASSES',
  'VIEW_SCHOOL',
  'VIEW_ORGANIZATION',
];
const READ_REACH: readonly StudentReach[] = ['super', 'admin', 'teacher', 'principal', 'manager'];

const RULE =
  'Closed codes only, no free text (spec: "a blocked context flag or any free-text note about a student is ' +
  'rejected"): an unknown code 422 VALIDATION_ERROR, a code on the blocked list 403 CONTEXT_FLAG_BLOCKED (details ' +
  'name each), any other key (a note) 400 UNKNOWN_FIELD; nothing written on a refusal. ';

/** The child's context flags (docs/identity.md, "Context flags"). */
export const contextFlagRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    const target = async (request: Parameters<typeof callerOf>[0]) =>
      reachOr404(sql, request, 'student', (request.params as { studentId: number }).studentId);
    const requireReach = async (
      request: Parameters<typeof callerOf>[0],
      reaches: readonly StudentReach[],
      what: string,
    ) => {
      const reached = await studentReach(sql, callerOf(request), (request.params as { studentId: number }).studentId);
      if (!reached.reach || !reaches.includes(reached.reach)) throw permissionDenied(what);
    };

    app.get(
      '/students/:studentId/context-flags',
      {
        config: { anyPermission: READERS, target },
        schema: {
          tags,
          summary: 'A child’s context flags',
          description:
            'Staff who reach the child (its teacher, the school’s principal, the organization’s admin or manager, ' +
            'super-admin): 200 { studentId, flags [{ code, labelAr, setAt }] } (a code blocked since it was set is ' +
            'not shown); another teacher, a parent or the child 403; another organization’s or an unknown child 404.',
          security,
          params: Params,
          response: { 200: FlagsResponse, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        await requireReach(request, READ_REACH, 'staff who reach the child read its context flags');
        return { studentId: request.params.studentId, flags: await contextFlagsOf(sql, request.params.studentId) };
      },
    );

    app.put(
      '/students/:studentId/context-flags',
      {
        config: { anyPermission: WRITERS, target, strictBody: true },
        schema: {
          tags,
          summary: 'Select a child’s context flags (replaces the set)',
          description:
            RULE +
            'The child’s teacher (RECORD_TEACHER_ACTION on one of its classes), the organization’s admin or ' +
            'super-admin; anyone else 403; another organization’s or an unknown child 404. A flag kept keeps its ' +
            'first setAt. 200 with the stored set.',
          security,
          params: Params,
          body: Body,
          response: { 200: FlagsResponse, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        await requireReach(request, WRITE_REACH, 'the child’s teacher or an administrator selects its context flags');
        const flags = await setContextFlags(sql, {
          studentId: request.params.studentId,
          codes: request.body.flags,
          setBy: callerOf(request).userId,
          at: deps.clock.now(),
        });
        return { studentId: request.params.studentId, flags };
      },
    );
  };
