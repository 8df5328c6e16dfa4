import { createHash } from 'node:crypto';
import { studentItemsByIds } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import { type LanguageSafetyFilter, loadLanguageSafety } from '@qiraa/language-safety';
import { THEME_LABELS_AR } from '../codes';
import type { SessionRow, SlotRow } from './sessionQueries';
import { renderSessionSheet, type SheetInput, sheetLines } from './sessionSheet';
import { sessionLink } from './sheetQrCode';
import { zipSheets } from './zipSheets';

export interface RenderedSheets {
  pdfs: { studentId: number; fileName: string; pdf: Uint8Array; sha256: string }[];
  zip: Uint8Array;
  zipSha256: string;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The strings the filter checks: every drawn line but the child's own name and the link (data, not wording). */
export const filteredStrings = (input: SheetInput) =>
  sheetLines(input)
    .filter((l) => l.style !== 'link' && !l.text.startsWith('الاسم: '))
    .map((l) => l.text);

/**
 * The sheets of the printable slots: every input built first and every student-facing string checked
 * (general tier); one failure rejects the whole batch with 422 before anything is rendered or written (the
 * session stays previewed). Then one PDF per child and a ZIP of them all (stored, not deflated: PDF streams
 * are compressed already).
 */
export async function renderSheets(
  sql: AnySql,
  session: SessionRow,
  slots: readonly SlotRow[],
  filter?: LanguageSafetyFilter,
): Promise<RenderedSheets> {
  const [bp] = await sql<{ title_ar: string; intro_ar: string; target_minutes: number }[]>`
    select title_ar, intro_ar, target_minutes from ses_blueprints where id = ${session.blueprint_id}`;
  const items = await studentItemsByIds(
    sql,
    slots.flatMap((s) => s.item_ids),
  );
  const inputs = slots.map((slot) => ({
    slot,
    input: {
      titleAr: bp!.title_ar,
      introAr: bp!.intro_ar,
      themeLabelAr: THEME_LABELS_AR[session.theme],
      targetMinutes: bp!.target_minutes,
      fullNameAr: slot.full_name_ar,
      gender: slot.gender,
      items: slot.item_ids.map((id) => items.get(id)).filter((i) => i !== undefined),
      link: sessionLink(slot.slot_id),
    } satisfies SheetInput,
  }));
  const safety = filter ?? (await loadLanguageSafety(sql));
  const failing = inputs.flatMap(({ slot, input }) =>
    filteredStrings(input).some((t) => safety.check(t, 'general').kind !== 'pass') ? [Number(slot.student_id)] : [],
  );
  if (failing.length > 0) {
    throw new ApiError(422, 'VALIDATION_ERROR', 'a student-facing string failed the language filter; no sheet made', {
      reason: 'language_safety_blocked',
      details: failing.map((id) => ({ field: `students/${id}`, issue: 'a sheet string failed the language filter' })),
    });
  }
  const pdfs = await Promise.all(
    inputs.map(async ({ slot, input }) => {
      const pdf = await renderSessionSheet(input);
      return {
        studentId: Number(slot.student_id),
        fileName: `student-${slot.student_id}.pdf`,
        pdf,
        sha256: sha256(pdf),
      };
    }),
  );
  const zip = zipSheets(pdfs);
  return { pdfs, zip, zipSha256: sha256(zip) };
}
