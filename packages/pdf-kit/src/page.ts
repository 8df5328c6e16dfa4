/** A4 in PDF points (1/72 inch). */
export const A4 = { width: 595.28, height: 841.89 } as const;

/** 2 cm, the margin of every printed sheet. */
export const MARGIN = 56.69;
