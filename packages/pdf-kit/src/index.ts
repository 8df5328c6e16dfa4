export { type ArabicFonts, embedArabicFonts } from './fonts';
export { A4, MARGIN } from './page';
export { loadPdfLib, newPdfDocument, pdfLib } from './pdfLib';
export { drawRtlLine, type LineStyle, lineWidth, wrapRtl } from './rtlLine';
export { type VisualRun, visualRuns } from './visualRuns';
