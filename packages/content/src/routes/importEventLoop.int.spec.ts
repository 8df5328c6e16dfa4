import type { AddressInfo } from 'node:net';
import { useTestApp } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { importContent } from '../commands/importContent';
import { IMPORT_SIZE_LIMITS } from './sizeLimit';

const t = useTestApp();

// A grade-3 story paragraph that passes the language filter; 16 of them make a passage of about 7 KB.
const PARAGRAPH =
  'في يومِ الخميسِ زارَ تلاميذُ الصفِّ الثالثِ مزرعةَ الجدِّ صالحٍ. كانَ الجوُّ مشمسًا جميلًا، وكانتِ ' +
  'الحقولُ خضراءَ واسعةً. رأى التلاميذُ الأبقارَ والدجاجَ، وشاهدوا الجدَّ صالحًا وهو يسقي أشجارَ الزيتونِ. ';
const PASSAGES = 1350;

/** A content_bundle just under the 10 MB limit: PASSAGES passages, three questions on each. */
function largeBundle() {
  return {
    contentKind: 'content_bundle' as const,
    sourceDeclared: { origin: 'authored_in_house' as const, reference: 'event-loop spec' },
    agreementSignoff: { agreementCode: 'AGR-LOOP', signedByName: 'فريق قراءة', signedAt: '2026-11-21T00:00:00Z' },
    passages: Array.from({ length: PASSAGES }, (_, p) => ({
      external_id: `loop-p${p}`,
      grade: 3,
      title_ar: `زيارةٌ إلى المزرعةِ ${p + 1}`,
      body_ar: PARAGRAPH.repeat(16).trim(),
    })),
    items: Array.from({ length: PASSAGES * 3 }, (_, i) => ({
      external_id: `loop-i${i}`,
      content_role: 'target_training' as const,
      grade: 3,
      sub_skill_id: 'lc_explicit_detail',
      item_pattern: 'passage_literal',
      training_level: 1 + (i % 4),
      passage_external_id: `loop-p${Math.floor(i / 3)}`,
      stem_ar: `ماذا كانَ الجدُّ صالحٌ يسقي؟ (${i + 1})`,
      options: [
        { key: 'a', text_ar: 'شجرةَ التوتِ' },
        { key: 'b', text_ar: 'الحقولَ الخضراءَ' },
        { key: 'c', text_ar: 'أشجارَ الزيتونِ' },
      ],
      correct_option_key: 'c',
    })),
  };
}

describe('a 10 MB import and the event loop', () => {
  it('answers /healthz over a real socket while the import is still checking its passages', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const body = largeBundle();
    const decodedBytes = Buffer.byteLength(JSON.stringify(body));
    expect(decodedBytes).toBeGreaterThan(9.5 * 2 ** 20);
    expect(decodedBytes).toBeLessThanOrEqual(IMPORT_SIZE_LIMITS.content_bundle);

    // Progress of the import, seen through its input: every read of a passage body counts. The first read sends
    // /healthz; its answer records how many reads the import had made by then. The language check and the
    // hash read every body in one loop: unless that loop gives the event loop turns, the answer can only come
    // after the last read.
    let reads = 0;
    let importDone = false;
    let answered: { atRead: number; importDone: boolean; status: number } | null = null;
    let probe: Promise<void> | null = null;
    const onRead = () => {
      reads += 1;
      probe ??= fetch(`http://127.0.0.1:${port}/healthz`).then(async (res) => {
        await res.arrayBuffer();
        answered = { atRead: reads, importDone, status: res.status };
      });
    };
    for (const passage of body.passages) {
      const text = passage.body_ar;
      Object.defineProperty(passage, 'body_ar', {
        enumerable: true,
        get: () => {
          onRead();
          return text;
        },
      });
    }

    const report = await importContent(
      { sql: t.runtime.sql },
      { organizationId: null, createdBy: null, body, decodedBytes },
    );
    importDone = true;
    await probe;

    expect(report.counts).toMatchObject({ rows: PASSAGES * 4, rejected: 0 });
    expect(answered).not.toBeNull();
    const { atRead, importDone: doneWhenAnswered, status } = answered!;
    expect(status).toBe(200);
    expect(doneWhenAnswered).toBe(false);
    // At least one passage body was still to be read when /healthz answered.
    expect(atRead).toBeLessThan(reads);
  }, 120_000);
});
