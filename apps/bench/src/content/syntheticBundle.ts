import type { ImportBodyInput } from '@qiraa/content';

// A grade-3 story paragraph; repeated, it makes passages of a realistic alphabet and word length.
const PARAGRAPH =
  'في يومِ الخميسِ زارَ تلاميذُ الصفِّ الثالثِ مزرعةَ الجدِّ صالحٍ. كانَ الجوُّ مشمسًا جميلًا، وكانتِ ' +
  'الحقولُ خضراءَ واسعةً. رأى التلاميذُ الأبقارَ والدجاجَ، وشاهدوا الجدَّ صالحًا وهو يسقي أشجارَ الزيتونِ. ';

const option = (key: string, text: string) => ({ key, text_ar: text });

/**
 * A content_bundle of `passages` passages (each `paragraphs` paragraphs long) with three literal questions
 * each; `tag` keeps external ids apart between bundles. Its decoded JSON size is what the 10 MB limit counts.
 */
export function syntheticBundle(tag: string, passages: number, paragraphs: number): ImportBodyInput {
  const body = {
    contentKind: 'content_bundle',
    sourceDeclared: { origin: 'authored_in_house', reference: 'bench:content synthetic bundle' },
    agreementSignoff: {
      agreementCode: 'qiraa-content-2026',
      signedByName: 'فريق قراءة',
      signedAt: '2026-11-21T00:00:00Z',
    },
    passages: Array.from({ length: passages }, (_, p) => ({
      external_id: `${tag}-p${p}`,
      grade: 3,
      title_ar: `زيارةٌ إلى المزرعةِ ${p + 1}`,
      body_ar: PARAGRAPH.repeat(paragraphs).trim(),
    })),
    items: Array.from({ length: passages * 3 }, (_, i) => ({
      external_id: `${tag}-i${i}`,
      content_role: 'target_training',
      grade: 3,
      sub_skill_id: 'lc_explicit_detail',
      item_pattern: 'passage_literal',
      training_level: 1 + (i % 4),
      passage_external_id: `${tag}-p${Math.floor(i / 3)}`,
      stem_ar: `ماذا كانَ الجدُّ صالحٌ يسقي؟ (${i + 1})`,
      options: [option('a', 'شجرةَ التوتِ'), option('b', 'الحقولَ الخضراءَ'), option('c', 'أشجارَ الزيتونِ')],
      correct_option_key: 'c',
    })),
  };
  return body as unknown as ImportBodyInput;
}

export const jsonBytes = (body: unknown) => Buffer.byteLength(JSON.stringify(body));
