import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BigintId, errorResponses } from '@qiraa/http-kit';
import { callerOf, type TargetCheck } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { renderReadingSheet } from '../queries/readingSheet';
import { assertClassTeacher, readingSheetScope } from '../queries/readingSheetSource';
import { assertSheetLanguage, passesSheetLanguage } from '../queries/sheetLanguage';
import { renderWordListSheet } from '../queries/wordListSheet';
import { wordListForSheet } from '../queries/wordListSheetSource';
import { contentDisposition } from './contentDisposition';

const tags = ['assessment-sheets'];
const security = [{ bearerAuth: [] }];

/** A PDF answer in the OpenAPI document: binary, with the download name in Content-Disposition. */
const pdfResponse = (description: string) =>
  ({
    description,
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    headers: {
      'content-disposition': {
        type: 'string',
        description:
          'attachment; filename="<ascii>.pdf"; filename*=UTF-8\'\'<the Arabic name, percent-encoded UTF-8> ' +
          '(RFC 6266, RFC 5987)',
      },
    },
  }) as never;

const WordListParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'word-list version id (operational)' }),
});
const ReadingSheetParams = Type.Object({
  classId: Type.String({ pattern: '^cls_[A-Za-z0-9]{12}$' }),
  studentId: BigintId,
});
const ReadingSheetQuery = Type.Object({
  passageId: Type.String({ minLength: 1, maxLength: 64, description: 'content-bank passage id (operational)' }),
});

const LANGUAGE =
  'Every word and the title pass the general tier of the language-safety filter, or the answer is 422 ' +
  'reason language_safety_blocked with no PDF (details name the refused fields, e.g. words[3]); no rule ' +
  'set: 503 LANGUAGE_SAFETY_UNAVAILABLE.';

/** The printed sheets (docs/assessment-sheets.md). Both read only: no event, no row. */
export const sheetRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const wordListTarget: TargetCheck = async (request) => {
      await wordListForSheet(deps.sql, callerOf(request), (request.params as { id: string }).id);
    };
    const readingSheetTarget: TargetCheck = async (request) => {
      const { classId, studentId } = request.params as { classId: string; studentId: number };
      const { passageId } = request.query as { passageId: string };
      await readingSheetScope(deps.sql, callerOf(request), { classId, studentId, passageId });
    };

    app.get(
      '/word-lists/:id/sheet.pdf',
      {
        config: { anyPermission: ['RECORD_TEACHER_ACTION', 'RUN_BACKOFFICE'], target: wordListTarget },
        schema: {
          tags,
          summary: 'The child’s A4 sheet of a word list (PDF)',
          description:
            'Who: the adults who assess or prepare assessments: teachers (RECORD_TEACHER_ACTION), organization ' +
            'admins and the super-admin (RUN_BACKOFFICE); principals, managers, parents and students: 403. ' +
            'Which list: an operational version, global or of the caller’s organization (its schools’ lists ' +
            'included); another organization’s, a draft, a retired or an unknown id: 404 (before any 403). ' +
            'The sheet: A4 portrait, the skill’s label as title on every page, the words in list order right ' +
            'to left in rows of the list’s wordsPerRow (5 when it names none), large Naskh type (32 pt in ' +
            'grades 1-2, 28 pt in 3-4, smaller only when the widest word would not fit its cell). Nothing ' +
            `else: no number of any kind (no page or word numbers, no dates). ${LANGUAGE} Writes nothing.`,
          security,
          params: WordListParams,
          response: {
            200: pdfResponse('The sheet, application/pdf'),
            ...errorResponses(401, 403, 404, 422, 503),
          },
        },
      },
      async (request, reply) => {
        const list = await wordListForSheet(deps.sql, callerOf(request), request.params.id);
        await assertSheetLanguage(deps.sql, {
          title: list.skillLabelAr,
          ...Object.fromEntries(list.words.map((word, i) => [`words[${i}]`, word])),
        });
        const pdf = await renderWordListSheet({
          title: list.skillLabelAr,
          words: list.words,
          wordsPerRow: list.wordsPerRow,
          grade: list.grade,
        });
        return reply
          .type('application/pdf')
          .header(
            'content-disposition',
            contentDisposition(
              `word-list-${list.externalId}-v${list.version}.pdf`,
              `ورقة كلمات - ${list.skillLabelAr}.pdf`,
            ),
          )
          .send(Buffer.from(pdf));
      },
    );

    app.get(
      '/classes/:classId/students/:studentId/reading-sheet.pdf',
      {
        config: { anyPermission: ['VIEW_OWN_CLASSES'], target: readingSheetTarget },
        schema: {
          tags,
          summary: 'A passage sheet for a child’s oral reading (PDF)',
          description:
            'Who: a teacher of the class (ClassTeacher); anyone else of the organization (another teacher, the ' +
            'principal, the manager, an organization admin, a parent, a student) and the super-admin: 403. ' +
            'Tenant first, 404 before any 403: the class in another organization or unknown, the student not ' +
            'enrolled (active) in that class, the passage unknown, not operational, or of another ' +
            'organization (a passage is global or the class’s organization’s). The sheet: A4 portrait, the ' +
            'child’s first name small at the top, the passage title, then the passage right to left, wrapped, ' +
            '24 pt in grade 1 down to 18 pt in grade 4 (the passage’s grade), onto as many pages as it needs; ' +
            'no QR code, no page numbers. The passage title and body pass the general tier of the language-' +
            'safety filter, else 422 reason language_safety_blocked and no PDF; a first name the filter refuses ' +
            'is left off the sheet. Writes nothing (no event, no row, no audit entry for a teacher).',
          security,
          params: ReadingSheetParams,
          querystring: ReadingSheetQuery,
          response: {
            200: pdfResponse('The sheet, application/pdf'),
            ...errorResponses(401, 403, 404, 422, 503),
          },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const scope = await readingSheetScope(deps.sql, caller, {
          classId: request.params.classId,
          studentId: request.params.studentId,
          passageId: request.query.passageId,
        });
        await assertClassTeacher(deps.sql, caller, scope.classId);
        const { passage } = scope;
        await assertSheetLanguage(deps.sql, { title: passage.titleAr, body: passage.bodyAr });
        const firstName = (await passesSheetLanguage(deps.sql, scope.firstName)) ? scope.firstName : null;
        const pdf = await renderReadingSheet({
          title: passage.titleAr,
          body: passage.bodyAr,
          grade: passage.grade,
          firstName,
        });
        return reply
          .type('application/pdf')
          .header('cache-control', 'no-store')
          .header(
            'content-disposition',
            contentDisposition(
              `reading-sheet-${passage.externalId}-student-${scope.studentId}.pdf`,
              `ورقة قراءة - ${passage.titleAr}${firstName ? ` - ${firstName}` : ''}.pdf`,
            ),
          )
          .send(Buffer.from(pdf));
      },
    );
  };
