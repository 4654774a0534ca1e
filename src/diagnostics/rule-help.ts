/**
 * Where the reference explains each diagnostic code (SARIF `helpUri`), and the shape of a code's longer text:
 * what it means and what to do about it, as the table of codes holds it. docs/policy-reference.md section 14
 * shows the same table; a test keeps the two equal.
 */

/** What a code means and what to do. */
export interface RuleHelp {
  readonly meaning: string;
  readonly fix: string;
}

/** Where the reference lives; each code has an anchor `diagnostic-<code>` in its table. */
export const REFERENCE_URL = "https://toolgate.dev/docs/policy-reference.md";

/** The reference anchor of a code. */
export function helpUri(code: string): string {
  return `${REFERENCE_URL}#diagnostic-${code}`;
}
