/**
 * A file that failed its schema, read without the parts that failed it, so that the load can check the rest
 * (other rules, tools, tests) too, as tsc and ESLint report everything at once.
 */
import type { Diagnostic } from "../diagnostic-codes.js";
import type { NodePosition, ParsedFile } from "../parse-yaml.js";

/**
 * A parsed file without the parts its schema problems point into: the element two levels down from the
 * root (a rule, a tool, a test, a set entry, one `reasons` entry), or the top-level key when the problem is
 * at that key. Positions follow the elements that stay (list indexes are renumbered). `undefined` when a
 * problem is about the file as a whole.
 */
export function pruneInvalid(parsed: ParsedFile, problems: readonly Diagnostic[]): ParsedFile | undefined {
  const drop = new Set<string>();
  for (const problem of problems) {
    const segments = (problem.path ?? "").split("/").slice(1);
    if (segments.length === 0) return undefined;
    drop.add(`/${segments.slice(0, 2).join("/")}`);
  }
  const data = parsed.data as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const renumber = new Map<string, string>();
  for (const key of Object.keys(data)) {
    const at = `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (drop.has(at)) continue;
    const value = data[key];
    if (Array.isArray(value)) {
      const kept: unknown[] = [];
      value.forEach((item, index) => {
        if (drop.has(`${at}/${index}`)) return;
        renumber.set(`${at}/${index}`, `${at}/${kept.length}`);
        kept.push(item);
      });
      Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true, configurable: true });
    } else if (value !== null && typeof value === "object") {
      const kept: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const child = `${at}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`;
        if (drop.has(child)) continue;
        Object.defineProperty(kept, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
      Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true, configurable: true });
    } else {
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  const positions = new Map<string, NodePosition>();
  for (const [pointer, position] of parsed.positions) {
    const segments = pointer.split("/");
    const head = segments.slice(0, 3).join("/");
    if (drop.has(segments.slice(0, 2).join("/")) || drop.has(head)) continue;
    const moved = renumber.get(head);
    positions.set(moved === undefined ? pointer : `${moved}${pointer.slice(head.length)}`, position);
  }
  return { file: parsed.file, data: out, positions };
}
