/** Counted nouns in messages: "1 tool", "2 tools", "1 policy test", "0 files". */

/**
 * A count and its noun, plural unless the count is 1.
 * @param count - how many.
 * @param singular - the noun for one.
 * @param plural - the noun for several (default: `singular` + "s").
 */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
