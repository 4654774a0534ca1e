/** Three-valued truth: `0` certainly not, `1` certainly, `2` maybe (DESIGN.md section 4.5). */
export type Truth = 0 | 1 | 2;
export const FALSE: Truth = 0;
export const TRUE: Truth = 1;
export const UNKNOWN: Truth = 2;

/** Conjunction in three values. */
export function and(a: Truth, b: Truth): Truth {
  if (a === FALSE || b === FALSE) return FALSE;
  return a === UNKNOWN || b === UNKNOWN ? UNKNOWN : TRUE;
}

/** Negation in three values: a maybe stays a maybe. */
export function negate(a: Truth): Truth {
  return a === UNKNOWN ? UNKNOWN : a === TRUE ? FALSE : TRUE;
}
