/**
 * `prefix` compares plain text; on a field that holds a path, or with a prefix that reads as one, `path_prefix`
 * (which reads the value as a path first) was likely meant.
 */

import { childPointer } from "../parsed-file.js";
import { definePolicyCheck } from "./policy-check.js";

/** Words of a field name that say it holds a file system path. */
const PATH_WORDS: ReadonlySet<string> = new Set([
  "path",
  "paths",
  "file",
  "files",
  "filename",
  "filepath",
  "dir",
  "dirs",
  "directory",
  "folder",
  "cwd",
]);

/**
 * Why a `prefix` looks like it was written with the old path meaning: the field's name says it
 * holds a path, or the prefix itself reads as one (it starts with `/`, `./`, `../`, `~/` or a drive letter, or
 * has a `.` or `..` segment). `undefined` when nothing says so.
 */
function pathHint(field: string, prefix: string): string | undefined {
  const name = field.replaceAll("[*]", "").split(".").at(-1) ?? field;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  if (words.some((word) => PATH_WORDS.has(word))) return `field "${field}" holds a path`;
  if (/^(\/|\.\.?\/|~\/|[A-Za-z]:[\\/])/.test(prefix) || /(^|\/)\.\.?(\/|$)/.test(prefix))
    return `${JSON.stringify(prefix)} reads as a path`;
  return undefined;
}

export const prefixOnPathCheck = definePolicyCheck({
  meta: {
    code: "prefix-on-path",
    severity: "warning",
    description:
      "A plain string prefix is applied to a path, where path_prefix (which normalises the path) was likely meant.",
    meaning: "A `prefix` (plain text) is applied to a field that holds a path, or its text reads as a path.",
    fix: 'Use `path_prefix` (or `glob`); for plain text on purpose, `regex: "^…"`.',
  },
  name: "prefix is not used on paths",
  run: (facts, report) => {
    for (const node of facts.operatorNodes) {
      const prefix = node.spec.prefix;
      if (prefix === undefined) continue;
      const hint = pathHint(node.field, prefix);
      if (hint === undefined) continue;
      const example = `${prefix}${prefix.endsWith("/") ? "" : "/"}../x`;
      report.at(
        node.parsed,
        childPointer(node.pointer, "prefix"),
        `"prefix" compares plain text (${JSON.stringify(example)} starts with ${JSON.stringify(prefix)}), but ${hint}; did you mean "path_prefix", which reads the value as a path first? (For plain text on purpose, write regex: "^…".)`,
        "key",
      );
    }
  },
});
