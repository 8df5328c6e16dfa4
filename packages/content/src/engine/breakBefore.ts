/** Grades whose sittings pause between passages (spec: "in grades 3 and 4, breakBefore: true"). */
const BREAK_GRADES = new Set([3, 4]);

/**
 * The spec's `breakBefore: true after the last question on a passage`, per question in served order: true on
 * the question that directly follows the last question reading some passage (the child leaves that text
 * behind for good), false everywhere else and always false in grades 1 and 2. A question after a passage
 * question whose passage comes back later is not a break; nothing follows the final question.
 */
export function breakBeforeFlags(grade: number, passageIds: readonly (string | null)[]): boolean[] {
  return passageIds.map((_, i) => {
    if (!BREAK_GRADES.has(grade) || i === 0) return false;
    const previous = passageIds[i - 1];
    return previous != null && !passageIds.slice(i).includes(previous);
  });
}
