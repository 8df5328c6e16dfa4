/** Indexes of the second and later rows whose key an earlier row of the batch already used. */
export function laterDuplicates(keys: readonly string[]): Set<number> {
  const seen = new Set<string>();
  const later = new Set<number>();
  keys.forEach((key, i) => {
    if (seen.has(key)) later.add(i);
    seen.add(key);
  });
  return later;
}
