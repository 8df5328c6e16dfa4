import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, refusalResponses } from '@qiraa/http-kit';
import { callerOf, type TargetCheck } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { deliverMixed, distributeOnline, generatePdfs } from '../commands/deliverSession';
import { requireClassTeacher, sessionPlace } from '../queries/sessionAccess';
import { security } from '../schemas';
import { DeliveryResponse, MixedResponse, SessionParams } from '../schemas/sessionSchemas';
import { TEACHER, TEACHER_NOTE } from './catalogRoutes';

const tags = ['sessions'];
/** The refusals of the three deliveries the spec does not name (docs/api.md). */
const DELIVERY_REFUSALS = refusalResponses({ 409: ['not_previewed', 'delivery_mode_mismatch'] });
const TRANSITION =
  'A session reaches delivered once, by the route of its frozen delivery mode: distribute-online for online, ' +
  'generate-pdfs for printable, deliver-mixed for mixed; another mode is 409 reason delivery_mode_mismatch, a ' +
  'draft or cancelled session 409 not_previewed. Repeats after delivery change nothing.';

const zipResponse = {
  description: 'The ZIP of the per-student PDFs (application/zip; one student-<id>.pdf each)',
  content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
};

/** Delivery: online queueing, printed A4 sheets with QR codes, mixed (docs/sessions.md). */
export const deliveryRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql } = deps;
    const sessionTarget: TargetCheck = async (request) => {
      await sessionPlace(sql, callerOf(request), (request.params as { id: string }).id);
    };
    const teacherOf = async (request: Parameters<TargetCheck>[0], id: string) => {
      const caller = callerOf(request);
      await requireClassTeacher(sql, caller, (await sessionPlace(sql, caller, id)).classId);
      return caller;
    };

    app.post(
      '/sessions/:id/distribute-online',
      {
        config: { ...TEACHER, target: sessionTarget },
        schema: {
          tags,
          summary: 'Queue each online recipient’s practice (idempotent per student)',
          description:
            `${TEACHER_NOTE} Queues every included online slot not queued yet (queued); the ones queued before ` +
            `are alreadyQueued. Parallel calls queue each child once. ${TRANSITION}`,
          security,
          params: SessionParams,
          response: { 200: DeliveryResponse, ...errorResponses(400, 401, 403, 404, 409, 422), ...DELIVERY_REFUSALS },
        },
      },
      async (request) => {
        const caller = await teacherOf(request, request.params.id);
        return distributeOnline(deps, caller.userId, request.params.id);
      },
    );

    app.post(
      '/sessions/:id/generate-pdfs',
      {
        config: { ...TEACHER, target: sessionTarget },
        schema: {
          tags,
          summary: 'One A4 right-to-left PDF per printed recipient with a QR code, as one ZIP',
          description:
            `${TEACHER_NOTE} Every student-facing string of every sheet is checked with the language-safety filter ` +
            'first: one failure rejects the whole batch with 422 reason language_safety_blocked, nothing is ' +
            'written and the session stays previewed (filter_failed is never written). Each PDF: title, name, ' +
            'theme and length, an encouragement in the child’s grammatical gender, the instruction, the items ' +
            'frozen at accept (never the answer) and a QR code of the child’s session link. ' +
            TRANSITION,
          security,
          params: SessionParams,
          response: { 200: zipResponse, ...errorResponses(400, 401, 403, 404, 409, 422, 503), ...DELIVERY_REFUSALS },
        },
      },
      async (request, reply) => {
        const caller = await teacherOf(request, request.params.id);
        const { sheets, status } = await generatePdfs(deps, caller.userId, request.params.id);
        return reply
          .type('application/zip')
          .header('cache-control', 'no-store')
          .header('x-session-status', status)
          .header('content-disposition', `attachment; filename="session-${request.params.id}.zip"`)
          .send(Buffer.from(sheets.zip));
      },
    );

    app.post(
      '/sessions/:id/deliver-mixed',
      {
        config: { ...TEACHER, target: sessionTarget },
        schema: {
          tags,
          summary: 'Deliver each child in the medium frozen at accept',
          description:
            `${TEACHER_NOTE} Online slots are queued (as distribute-online) and printed slots get their sheets ` +
            '(as generate-pdfs: the language filter first, 422 for the whole batch); then delivered. The ZIP of ' +
            `the printed sheets is fetched with generate-pdfs (same bytes). ${TRANSITION}`,
          security,
          params: SessionParams,
          response: { 200: MixedResponse, ...errorResponses(400, 401, 403, 404, 409, 422, 503), ...DELIVERY_REFUSALS },
        },
      },
      async (request) => {
        const caller = await teacherOf(request, request.params.id);
        return deliverMixed(deps, caller.userId, request.params.id);
      },
    );
  };
