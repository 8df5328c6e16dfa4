import { createTestDatabase } from '@qiraa/db/testing';
import { loadLanguageSafety } from '@qiraa/language-safety';
import { afterAll, describe, expect, it } from 'vitest';
import { TEMPLATE_LIBRARIES } from '../rules/templateLibrary';
import { DIAGNOSTIC_DONE_LABELS } from './diagnosticLabels';
import { HALT_MESSAGES } from './haltLabels';
import { PDF_CLOSING, PDF_HEADINGS, PDF_TITLE } from './pdfLabels';
import { STATUS_PHRASES } from './statusPhrases';
import { TRAJECTORY_LABELS } from './trajectoryLabels';

const db = await createTestDatabase();
afterAll(() => db.drop());

/** Every text this package writes, named, in every gender form. */
const texts: [string, string][] = [
  ...Object.entries(STATUS_PHRASES).map(([k, v]): [string, string] => [`phrase ${k}`, v]),
  ...Object.entries(TRAJECTORY_LABELS).map(([k, v]): [string, string] => [`trajectory ${k}`, v]),
  ...Object.entries(DIAGNOSTIC_DONE_LABELS).map(([k, v]): [string, string] => [`diagnostic done ${k}`, v]),
  ...Object.entries(HALT_MESSAGES).map(([k, v]): [string, string] => [`halt ${k}`, v]),
  ['pdf title', PDF_TITLE],
  ...Object.entries(PDF_HEADINGS).map(([k, v]): [string, string] => [`pdf ${k}`, v]),
  ...Object.entries(PDF_CLOSING).map(([k, v]): [string, string] => [`pdf closing ${k}`, v]),
  ...TEMPLATE_LIBRARIES.flatMap((library) =>
    library.templates.flatMap((t) =>
      Object.entries(t.text).map(([form, text]): [string, string] => [`v${library.version} ${t.id} ${form}`, text]),
    ),
  ),
];

describe('the parent portal’s own texts', () => {
  it.each(texts)('%s passes the parent tier with no rewrite', async (_name, text) => {
    const filter = await loadLanguageSafety(db.sql);
    expect(filter.check(text, 'parent')).toEqual({ kind: 'pass' });
  });

  it('gives each template three different forms where the child is named by a pronoun', () => {
    for (const t of TEMPLATE_LIBRARIES.at(-1)!.templates) {
      expect(t.text.male, t.id).not.toBe(t.text.female);
      expect(t.text.neutral, t.id).not.toMatch(/معه|معها/);
    }
  });
});
