import { type ApiError, unprocessable } from '@qiraa/http-kit';
import type { ContentKind } from '../queries/catalogTypes';
import type { ImportBodyInput } from '../schemas/importBody';

/** Kinds whose rows become item-bank items: they need a declared source and a signed agreement. */
export const ITEM_BEARING: readonly ContentKind[] = ['item', 'content_bundle', 'screening_form'];

type PayloadField = 'items' | 'passages' | 'form' | 'scaffoldPrompts' | 'wordLists';
const PAYLOAD_FIELDS: readonly PayloadField[] = ['items', 'passages', 'form', 'scaffoldPrompts', 'wordLists'];

/** The payload fields each kind takes (spec: content_bundle is { passages, items }). */
export const FIELDS_OF_KIND: Readonly<Record<ContentKind, readonly PayloadField[]>> = {
  item: ['items'],
  content_bundle: ['passages', 'items'],
  screening_form: ['form', 'passages', 'items'],
  scaffold_prompt: ['scaffoldPrompts'],
  word_list: ['wordLists'],
};

export const kindOf = (body: ImportBodyInput): ContentKind => body.contentKind ?? 'item';

const present = (value: unknown) => value !== undefined && value !== null;

/**
 * The body-level rules of an import, checked before any row: the kind decides which fields may appear and
 * whether source and sign-off are required. Returns the 422 to answer, or null when the body is acceptable.
 */
export function importBodyProblem(body: ImportBodyInput): ApiError | null {
  const kind = kindOf(body);
  const itemBearing = ITEM_BEARING.includes(kind);
  const allowed = FIELDS_OF_KIND[kind];
  const notAllowed: string[] = PAYLOAD_FIELDS.filter((f) => present(body[f]) && !allowed.includes(f));
  if (!itemBearing && present(body.sourceDeclared)) notAllowed.push('sourceDeclared');
  if (!itemBearing && present(body.agreementSignoff)) notAllowed.push('agreementSignoff');
  if (notAllowed.length > 0) {
    return unprocessable(
      'field_not_allowed_for_kind',
      `a ${kind} import does not take ${notAllowed.join(', ')}`,
      notAllowed.map((field) => ({ field, issue: `not allowed for contentKind ${kind}` })),
    );
  }
  if (itemBearing && !present(body.sourceDeclared)) {
    return unprocessable('source_declared_required', `a ${kind} import needs sourceDeclared`, [
      { field: 'sourceDeclared', issue: 'is required for item-bearing kinds' },
    ]);
  }
  if (itemBearing && !present(body.agreementSignoff)) {
    return unprocessable('agreement_signoff_required', `a ${kind} import needs agreementSignoff`, [
      { field: 'agreementSignoff', issue: 'is required for item, content_bundle and screening_form' },
    ]);
  }
  if (kind === 'screening_form' && !present(body.form)) {
    return unprocessable('form_required', 'a screening_form import needs form', [
      { field: 'form', issue: 'is required for contentKind screening_form' },
    ]);
  }
  const rowCount = allowed.reduce((n, f) => (f === 'form' ? n : n + (body[f]?.length ?? 0)), 0);
  const itemCount = body.items?.length ?? 0;
  if (rowCount === 0 || (kind === 'screening_form' && itemCount === 0)) {
    const field = kind === 'scaffold_prompt' ? 'scaffoldPrompts' : kind === 'word_list' ? 'wordLists' : 'items';
    return unprocessable('empty_payload', 'the import holds no rows', [{ field, issue: 'holds no rows' }]);
  }
  return null;
}
