import {
  A4,
  drawRtlLine,
  embedArabicFonts,
  type LineStyle,
  lineWidth,
  MARGIN,
  newPdfDocument,
  pdfLib,
  wrapRtl,
} from '@qiraa/pdf-kit';
import type { PDFPage } from 'pdf-lib';

/** What the parent PDF shows: the same allow-listed, filtered labels the portal answers, nothing else. */
export interface GrowthReportInput {
  readonly title: string;
  readonly firstName: string;
  readonly gradeLabel: string;
  readonly schoolName: string;
  readonly domains: readonly {
    labelAr: string;
    trajectoryLabel: string;
    windows: readonly { windowLabel: string; statusLabel: string }[];
  }[];
  readonly measures: readonly { labelAr: string; statusLabel: string }[];
  readonly suggestions: readonly string[];
  /** Fixed headings and the closing line (docs/parent-portal.md, "The parent PDF"). */
  readonly headings: {
    readonly growth: string;
    readonly measures: string;
    readonly home: string;
    readonly empty: string;
    readonly closing: string;
  };
}

const RIGHT = A4.width - MARGIN;
const WIDTH = A4.width - 2 * MARGIN;
/** Red, green, blue (pdf-lib's rgb once the document has loaded it). */
const ACCENT = [0.16, 0.45, 0.42] as const;
const SOFT = [0.93, 0.96, 0.95] as const;
const INK = [0.15, 0.15, 0.15] as const;

/**
 * An A4 right-to-left growth report: title, the child's first name, grade and school, the domains with their
 * trajectory and each window's phrase, the latest measures, the at-home suggestions, a closing line. No number
 * of any kind is drawn (no page number, no date), and the PDF carries no metadata dates.
 */
export async function renderGrowthReport(input: GrowthReportInput): Promise<Uint8Array> {
  const texts = [
    input.title,
    input.firstName,
    input.gradeLabel,
    input.schoolName,
    ...Object.values(input.headings),
    ...input.domains.flatMap((d) => [
      d.labelAr,
      d.trajectoryLabel,
      ...d.windows.flatMap((w) => [w.windowLabel, w.statusLabel]),
    ]),
    ...input.measures.flatMap((m) => [m.labelAr, m.statusLabel]),
    ...input.suggestions,
    '•',
    ':',
  ];
  const doc = await newPdfDocument();
  const { rgb } = pdfLib();
  const fonts = await embedArabicFonts(doc, texts);
  const body: LineStyle = { fonts, size: 12 };
  const bold: LineStyle = { fonts, size: 13, bold: true };
  let page: PDFPage = doc.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;

  const room = (needed: number) => {
    if (y - needed < MARGIN) {
      page = doc.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    }
  };
  const line = (text: string, style: LineStyle, gap = 1.7, right = RIGHT) => {
    room(style.size * gap);
    y -= style.size * gap;
    drawRtlLine(page, text, { right, y }, style);
  };
  const paragraph = (text: string, style: LineStyle, indent = 0) => {
    for (const l of wrapRtl(text, WIDTH - indent, style)) line(l, style, 1.7, RIGHT - indent);
  };
  const heading = (text: string) => {
    room(40);
    y -= 14;
    page.drawRectangle({ x: MARGIN, y: y - 30, width: WIDTH, height: 28, color: rgb(...SOFT) });
    y -= 4;
    line(text, { fonts, size: 15, bold: true }, 1.2, RIGHT - 8);
    y -= 10;
  };

  // Title block.
  const titleStyle: LineStyle = { fonts, size: 22, bold: true };
  y -= 30;
  drawRtlLine(page, input.title, { right: A4.width / 2 + lineWidth(input.title, titleStyle) / 2, y }, titleStyle);
  y -= 12;
  page.drawLine({ start: { x: MARGIN, y }, end: { x: RIGHT, y }, thickness: 1.5, color: rgb(...ACCENT) });
  line(input.firstName, { fonts, size: 18, bold: true }, 2);
  line(`${input.gradeLabel}، ${input.schoolName}`, body);

  heading(input.headings.growth);
  if (input.domains.length === 0) paragraph(input.headings.empty, body);
  for (const d of input.domains) {
    line(`${d.labelAr}: ${d.trajectoryLabel}`, bold, 1.9);
    for (const w of d.windows) line(`• ${w.windowLabel}: ${w.statusLabel}`, body, 1.6, RIGHT - 14);
  }

  heading(input.headings.measures);
  if (input.measures.length === 0) paragraph(input.headings.empty, body);
  for (const m of input.measures) line(`• ${m.labelAr}: ${m.statusLabel}`, body, 1.6, RIGHT - 4);

  heading(input.headings.home);
  for (const s of input.suggestions) {
    room(40);
    const lines = wrapRtl(s, WIDTH - 18, body);
    for (const [i, l] of lines.entries()) line(i === 0 ? `• ${l}` : l, body, 1.6, RIGHT - (i === 0 ? 4 : 14));
    y -= 4;
  }

  y -= 10;
  paragraph(input.headings.closing, { fonts, size: 12, bold: true });
  for (const p of doc.getPages())
    p.drawLine({
      start: { x: MARGIN, y: MARGIN - 10 },
      end: { x: RIGHT, y: MARGIN - 10 },
      thickness: 0.5,
      color: rgb(...INK),
    });
  return doc.save();
}
