/**
 * `npm run bench:sessions`: a printed session for a class of 30, the way generate-pdfs makes it (30 A4 Arabic
 * sheets, shaped and right to left, each with its QR code, then the ZIP), against a raw baseline measured in
 * the same run: 30 pdf-lib documents with the same number of lines in a standard font (no embedding, no
 * shaping, no bidi, no QR) and the same ZIP step. Target (issue 15): the 30 sheets plus the ZIP under 1 s.
 * Ends with one JSON line.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { renderSessionSheet, type SheetInput, sessionLink, zipSheets } from '@qiraa/sessions';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { printBenchJson } from '../jsonLine';

const STUDENTS = 30;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const NAMES = ['سارة أحمد', 'عمر خالد', 'ليلى سمير', 'يوسف علي', 'مريم حسن', 'آدم محمود'];

const items = Array.from({ length: 6 }, (_, i) => ({
  id: `itm_${i}`,
  version: 1,
  stemAr: `نَخْتَارُ الْكَلِمَةَ الَّتِي نَبْنِيهَا مِنَ الْمَقَاطِعِ: كِ + تَا + بٌ (${i + 1})`,
  options: [
    { key: 'a', textAr: 'كِتَابٌ' },
    { key: 'b', textAr: 'كَاتِبٌ' },
    { key: 'c', textAr: 'مَكْتَبٌ' },
  ],
  passageId: null,
}));

const sheet = (n: number): SheetInput => ({
  titleAr: 'نَبْنِي الْكَلِمَاتِ فِي السُّوقِ',
  introAr: 'نَجْمَعُ الْمَقَاطِعَ لِنَبْنِيَ كَلِمَةً، ثُمَّ نَخْتَارُ الْجَوَابَ.',
  themeLabelAr: 'السوق',
  targetMinutes: 20,
  fullNameAr: `${NAMES[n % NAMES.length]} ${n + 1}`,
  gender: n % 3 === 0 ? null : n % 2 === 0 ? 'female' : 'male',
  items,
  link: sessionLink(`sst_BENCH${String(n).padStart(9, '0')}`),
});

async function session(): Promise<number> {
  const started = performance.now();
  const pdfs = await Promise.all(
    Array.from({ length: STUDENTS }, async (_, n) => ({
      fileName: `student-${n}.pdf`,
      pdf: await renderSessionSheet(sheet(n)),
    })),
  );
  zipSheets(pdfs);
  return performance.now() - started;
}

/** The same line count per page in Helvetica: pdf-lib's own floor for 30 one-page documents. */
async function raw(): Promise<number> {
  const started = performance.now();
  const pdfs = await Promise.all(
    Array.from({ length: STUDENTS }, async (_, n) => {
      const doc = await PDFDocument.create({ updateMetadata: false });
      const font = await doc.embedFont(StandardFonts.Helvetica);
      const page = doc.addPage([595.28, 841.89]);
      for (let line = 0; line < 5 + 2 * items.length + 2; line++) {
        page.drawText(`line ${line} of student ${n}`, { x: 56, y: 780 - line * 24, size: 13, font });
      }
      return { fileName: `student-${n}.pdf`, pdf: await doc.save({ useObjectStreams: true }) };
    }),
  );
  zipSheets(pdfs);
  return performance.now() - started;
}

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    mean: ms.reduce((a, b) => a + b, 0) / ms.length,
    p95: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!,
  };
};

async function main() {
  // Warm-up: the fonts are read and parsed once per process (pdf-kit), as in a running API.
  await session();
  await raw();
  const sessionMs: number[] = [];
  const rawMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    sessionMs.push(await session());
    rawMs.push(await raw());
  }
  const s = stats(sessionMs);
  const r = stats(rawMs);
  console.log(
    `bench:sessions, ${STUDENTS} sheets + ZIP, ${RUNS} runs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`  session sheets (Arabic, shaped, QR) : mean ${s.mean.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms`);
  console.log(`  raw pdf-lib baseline (Helvetica)    : mean ${r.mean.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms`);
  printBenchJson('sessions', {
    thirtySheetsAndZipMs: {
      value: Math.round(s.mean),
      unit: 'ms per 30 sheets + ZIP (mean)',
      baseline: Math.round(r.mean),
      ratio: Number((s.mean / r.mean).toFixed(2)),
      goal: '< 1000 ms',
    },
    thirtySheetsAndZipP95Ms: {
      value: Math.round(s.p95),
      unit: 'ms (p95)',
      baseline: Math.round(r.p95),
      ratio: Number((s.p95 / r.p95).toFixed(2)),
    },
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
