import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ScreeningWindow } from '@qiraa/assessment';
import { errorResponses } from '@qiraa/http-kit';
import { callerOf, inGender, tenantTarget } from '@qiraa/identity';
import type { ContextDeps } from '@qiraa/kernel';
import { Type } from 'typebox';
import { logPdfExport } from '../commands/logPdfExport';
import { PDF_CLOSING, PDF_HEADINGS, PDF_TITLE } from '../engine/pdfLabels';
import { childEntryOf } from '../queries/childrenOf';
import { growthOf } from '../queries/growthOf';
import { renderGrowthReport } from '../queries/growthReport';
import { PDF_REACH, portalChild } from '../queries/portalChild';
import { recommendationsOf } from '../queries/recommendationsOf';
import { statusesOf } from '../queries/statusesOf';
import { ChildEntry, ChildParams, GrowthResponse, RecommendationsResponse, security, tags } from '../schemas';
import { Label, ParentObject } from '../schemas/allowList';
import { parentAnswer, parentFilter } from './parentAnswer';
import { PORTAL_GATE } from './portalRoutes';

/** The PDF's fixed texts, allow-listed and filtered like the rest. */
const PdfTexts = ParentObject({
  title: Label('title'),
  growth: Label('heading'),
  measures: Label('heading'),
  home: Label('heading'),
  empty: Label('placeholder'),
  closing: Label('closing line'),
});

/** POST /api/parent/pdf/{childId} (docs/parent-portal.md, "The parent PDF" and "Who prints the PDF"). */
export const pdfRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { sql, store } = deps;
    app.post(
      '/parent/pdf/:childId',
      {
        config: {
          anyPermission: [...PORTAL_GATE, 'VIEW_OWN_CLASSES'],
          target: tenantTarget(sql, { childId: 'student' }),
        },
        schema: {
          tags,
          summary: 'The parent growth report as an A4 right-to-left PDF',
          description:
            'A linked parent, the organization’s administrator, or a teacher of one of the child’s active ' +
            'classes (printing it for a parent meeting); another teacher, a principal, a manager or a student ' +
            '403; another organization’s or an unknown child 404 first. The growth page of the portal as a ' +
            'PDF: Arabic shaped, right to left, text-extractable, number-free (no date, no page number), every ' +
            'text through the allow-list and the parent tier. A TEACHER caller’s export first writes one ' +
            'data-access log row (`export_pdf` on the organization’s audit stream and `audit_log`); when that ' +
            'write fails the answer is 500 and no PDF. Parent and administrator exports write nothing. The ' +
            'language rule set unavailable: 503.',
          security,
          params: ChildParams,
          response: {
            200: Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary', description: 'application/pdf' }),
            ...errorResponses(400, 401, 403, 404, 500, 503),
          },
        },
      },
      async (request, reply) => {
        const filter = await parentFilter(sql);
        const caller = callerOf(request);
        const child = await portalChild(sql, caller, request.params.childId, PDF_REACH);
        const statuses = await statusesOf(sql, child.studentId);
        // The suggestions of the latest window with an active profile (else the latest decided one: the halt).
        const latest: ScreeningWindow =
          statuses.windows.findLast((w) => w.profileActive)?.window ??
          statuses.windows.findLast((w) => w.subSkills.length > 0)?.window ??
          'BOY';
        const [entry, recommendations] = await Promise.all([
          childEntryOf(sql, child.studentId),
          recommendationsOf(sql, child, latest),
        ]);
        const header = parentAnswer(request, filter, ChildEntry, entry);
        const growth = parentAnswer(request, filter, GrowthResponse, growthOf(child.firstName, statuses));
        const home = parentAnswer(request, filter, RecommendationsResponse, recommendations.response);
        const texts = parentAnswer(request, filter, PdfTexts, {
          title: PDF_TITLE,
          ...PDF_HEADINGS,
          closing: inGender(PDF_CLOSING, child.gender),
        });
        const pdf = await renderGrowthReport({
          title: texts.title,
          firstName: header.firstName,
          gradeLabel: header.gradeLabel,
          schoolName: header.schoolName,
          domains: growth.domains,
          measures: growth.measures,
          suggestions: home.halted ? [home.haltMessage!] : home.suggestions.map((s) => `${s.areaLabel}: ${s.text}`),
          headings: {
            growth: texts.growth,
            measures: texts.measures,
            home: texts.home,
            empty: texts.empty,
            closing: texts.closing,
          },
        });
        // Logged before a byte of the body leaves: a failed write throws, the error mapper answers 500.
        if (child.reach === 'teacher') {
          await logPdfExport(
            { sql, store, clock: deps.clock },
            { organizationId: child.organizationId, actorUserId: caller.userId, studentId: child.studentId },
          );
        }
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', 'inline; filename="growth-report.pdf"')
          .send(Buffer.from(pdf));
      },
    );
  };
