/**
 * `toolgate fmt`: the layout prettier writes for YAML, and nothing but layout. The text goes through prettier's
 * YAML formatter (loaded only here, and only when a file is formatted) with the project's prettier
 * configuration for that file, so a project that already runs prettier on its YAML never sees the two
 * disagree. The data is read before and after, and a result whose data differs in anything — a value, a key,
 * the order of a list or of a mapping's keys — is refused: layout-only by construction, so the policy
 * fingerprint never changes.
 *
 * `sort: true` (`toolgate fmt --sort`) first reorders what carries no meaning: `allow`, `ask`, `deny` and a
 * rule's `tools` sorted by name, `reasons` and `otherwise` by tool name, and the keys of policy, rule, tool,
 * test and condition mappings in the order the reference documents them. It never adds or removes an item,
 * and what it gives is checked to hold the same data up to those reorderings.
 */
import type { Document, Pair, Scalar, YAMLMap } from "yaml";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { OPERATOR_NAMES } from "../runtime/condition.js";
import { URL_KEYS } from "../runtime/match/url.js";
import { parseYaml } from "./parse-yaml.js";
import { isMap, isScalar, isSeq, yamlLibrary } from "./yaml-library.js";

/** The file kinds `fmt --sort` knows how to reorder. */
export type FormatKind = "policy" | "tools" | "tests";

/** What formatting one file's text gave. */
export type FormatResult =
  | {
      readonly ok: true;
      readonly text: string;
      /** True when `sort` moved something (the data's order changed; its content did not). */
      readonly reordered: boolean;
    }
  | {
      readonly ok: false;
      /** The first problem: the file is not a well-formed policy YAML file, or formatting would change data. */
      readonly diagnostic: Diagnostic;
    };

/** Options of `formatYamlText`. */
export interface FormatOptions {
  /** The file's path: prettier's configuration (`.prettierrc`, `.editorconfig`) is resolved for it. */
  readonly filepath?: string;
  /** The path shown in diagnostics (default: `filepath`, else `<text>`). */
  readonly file?: string;
  /** Reorder where order carries no meaning (`toolgate fmt --sort`). */
  readonly sort?: boolean;
}

const POLICY_KEYS = [
  "$schema",
  "version",
  "extends",
  "allow",
  "ask",
  "deny",
  "reasons",
  "otherwise",
  "rules",
];
const RULE_KEYS = ["id", "tools", "decision", "when", "context", "reason"];
const OTHERWISE_KEYS = ["decision", "reason"];
const TOOLS_KEYS = ["$schema", "tools", "aliases"];
const TOOL_KEYS = ["name", "description", "input_schema"];
const ALIAS_KEYS = ["host", "name", "tool", "arguments"];
const TESTS_KEYS = ["$schema", "tests"];
const TEST_KEYS = ["name", "call", "context", "expect", "rule"];
const CALL_KEYS = ["tool", "arguments"];
/** A condition's keys: operators in the order the reference lists them, then a command prefix's and a url's. */
const OPERATOR_KEYS: readonly string[] = [...OPERATOR_NAMES, "options", ...URL_KEYS];
/** The lists of a policy whose order has no meaning (a set of tool names). */
const SET_KEYS = ["allow", "ask", "deny"];

/** What kind of file a document is, from its top-level keys. */
export function formatKindOf(data: unknown): FormatKind | "other" {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return "other";
  // The configuration file names the policy.
  if (Object.hasOwn(data, "policy")) return "other";
  if (Object.hasOwn(data, "tests")) return "tests";
  // A tool file may hold only aliases.
  if ((Object.hasOwn(data, "tools") || Object.hasOwn(data, "aliases")) && !Object.hasOwn(data, "version"))
    return "tools";
  if (Object.hasOwn(data, "version") || Object.hasOwn(data, "rules") || Object.hasOwn(data, "allow"))
    return "policy";
  return "other";
}

function keyOf(pair: Pair): string | undefined {
  return isScalar(pair.key) && typeof pair.key.value === "string" ? pair.key.value : undefined;
}

function valueAt(map: YAMLMap, key: string): unknown {
  return map.items.find((p) => keyOf(p) === key)?.value;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Puts known keys first, in `order`; the others keep their order after them (a stable sort). */
function orderKeys(map: YAMLMap, order: readonly string[]): void {
  const rank = (pair: Pair) => {
    const index = order.indexOf(keyOf(pair) ?? "");
    return index === -1 ? order.length : index;
  };
  map.items = map.items
    .map((pair, index) => ({ pair, index }))
    .sort((a, b) => rank(a.pair) - rank(b.pair) || a.index - b.index)
    .map(({ pair }) => pair);
}

function sortKeys(map: YAMLMap): void {
  map.items = [...map.items].sort((a, b) => compareText(keyOf(a) ?? "", keyOf(b) ?? ""));
}

/** Sorts a list of strings by value; repeats stay (sorting adds and removes nothing). */
function sortSet(node: unknown): void {
  if (!isSeq(node) || !node.items.every((item) => isScalar(item) && typeof item.value === "string")) return;
  node.items = [...(node.items as Scalar[])].sort((a, b) =>
    compareText(a.value as string, b.value as string),
  );
}

function orderCondition(node: unknown): void {
  if (isMap(node)) {
    const keys = node.items.map(keyOf);
    if (keys.length > 0 && keys.every((k) => k !== undefined && OPERATOR_KEYS.includes(k))) {
      orderKeys(node, OPERATOR_KEYS);
    }
    for (const pair of node.items) orderCondition(pair.value);
  } else if (isSeq(node)) {
    for (const item of node.items) orderCondition(item);
  }
}

function mapsIn(node: unknown): YAMLMap[] {
  return isSeq(node) ? (node.items.filter((item) => isMap(item)) as YAMLMap[]) : [];
}

function sortDocument(root: YAMLMap, kind: FormatKind): void {
  if (kind === "policy") {
    orderKeys(root, POLICY_KEYS);
    for (const key of SET_KEYS) sortSet(valueAt(root, key));
    const reasons = valueAt(root, "reasons");
    if (isMap(reasons)) sortKeys(reasons);
    const otherwise = valueAt(root, "otherwise");
    if (isMap(otherwise)) {
      sortKeys(otherwise);
      for (const pair of otherwise.items) if (isMap(pair.value)) orderKeys(pair.value, OTHERWISE_KEYS);
    }
    for (const rule of mapsIn(valueAt(root, "rules"))) {
      orderKeys(rule, RULE_KEYS);
      sortSet(valueAt(rule, "tools"));
      for (const key of ["when", "context"]) {
        const conditions = valueAt(rule, key);
        if (isMap(conditions)) for (const pair of conditions.items) orderCondition(pair.value);
      }
    }
  } else if (kind === "tools") {
    orderKeys(root, TOOLS_KEYS);
    for (const tool of mapsIn(valueAt(root, "tools"))) orderKeys(tool, TOOL_KEYS);
    // The order of aliases, and of an alias's arguments, is meaning (the first of a name wins): keys only.
    for (const alias of mapsIn(valueAt(root, "aliases"))) orderKeys(alias, ALIAS_KEYS);
  } else {
    orderKeys(root, TESTS_KEYS);
    for (const test of mapsIn(valueAt(root, "tests"))) {
      orderKeys(test, TEST_KEYS);
      const call = valueAt(test, "call");
      if (isMap(call)) orderKeys(call, CALL_KEYS);
    }
  }
}

/**
 * The data with the orderings `sort` may change undone: sets sorted, and (through canonical comparison)
 * mapping keys in any order. Two files hold the same data up to `--sort` when these are equal.
 */
function withoutMeaninglessOrder(data: unknown, kind: FormatKind | "other"): unknown {
  if (kind !== "policy" || data === null || typeof data !== "object" || Array.isArray(data)) return data;
  const policy = data as Record<string, unknown>;
  const sorted = (list: unknown) =>
    Array.isArray(list) && list.every((item) => typeof item === "string")
      ? [...list].sort(compareText)
      : list;
  const copy: Record<string, unknown> = { ...policy };
  for (const key of SET_KEYS) if (key in copy) copy[key] = sorted(copy[key]);
  if (Array.isArray(copy.rules)) {
    copy.rules = copy.rules.map((rule) =>
      rule !== null && typeof rule === "object" && !Array.isArray(rule)
        ? { ...rule, tools: sorted((rule as Record<string, unknown>).tools) }
        : rule,
    );
  }
  return copy;
}

/** JSON with every mapping's keys in sorted order (compares data whose key order does not matter). */
function keyOrderFree(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => compareText(a, b)))
      : v,
  );
}

type Prettier = typeof import("prettier");
let prettier: Promise<Prettier> | undefined;

/** prettier's YAML formatter with the project's configuration for `filepath` (defaults when none). */
async function prettierFormat(text: string, filepath: string | undefined): Promise<string> {
  prettier ??= import("prettier");
  const { format, resolveConfig } = await prettier;
  const config = filepath === undefined ? null : await resolveConfig(filepath, { editorconfig: true });
  return format(text, { ...config, parser: "yaml", ...(filepath === undefined ? {} : { filepath }) });
}

function parsed(
  text: string,
  file: string,
): { ok: true; data: unknown } | { ok: false; diagnostic: Diagnostic } {
  const result = parseYaml(new TextEncoder().encode(text), file);
  if (!result.ok) return { ok: false, diagnostic: result.diagnostics[0] as Diagnostic };
  return { ok: true, data: result.value.data };
}

/**
 * Formats one file's text as prettier does for YAML; with `sort`, reorders what carries no meaning first. A
 * file that is not well-formed YAML is not formatted: the result carries the diagnostic `toolgate lint` gives.
 */
export async function formatYamlText(text: string, options: FormatOptions = {}): Promise<FormatResult> {
  const file = options.file ?? options.filepath ?? "<text>";
  const before = parsed(text, file);
  if (!before.ok) return before;
  const kind = formatKindOf(before.data);
  let input = text;
  if (options.sort === true && kind !== "other") {
    const doc: Document.Parsed = yamlLibrary().parseDocument(text, {
      version: "1.2",
      schema: "core",
      merge: false,
    });
    const root = doc.contents;
    if (isMap(root)) {
      // The comment above the first key is the file's header: it stays on top whatever key moves there.
      const first = root.items[0];
      const header = [root.commentBefore, isScalar(first?.key) ? first.key.commentBefore : undefined]
        .filter((c): c is string => typeof c === "string" && c !== "")
        .join("\n");
      if (header !== "") {
        root.commentBefore = header;
        if (isScalar(first?.key)) first.key.commentBefore = null;
      }
      sortDocument(root, kind);
    }
    input = doc.toString({ lineWidth: 0, minContentWidth: 0, indent: 2, indentSeq: true });
  }
  const output = await prettierFormat(input, options.filepath);
  const after = parsed(output, file);
  const same = after.ok && JSON.stringify(after.data) === JSON.stringify(before.data);
  const sameUpToOrder =
    after.ok &&
    keyOrderFree(withoutMeaninglessOrder(after.data, kind)) ===
      keyOrderFree(withoutMeaninglessOrder(before.data, kind));
  if (!(options.sort === true ? sameUpToOrder : same)) {
    // Never expected: prettier keeps data. Refusing keeps the promise that fmt changes layout only.
    return {
      ok: false,
      diagnostic: {
        code: "yaml-syntax",
        severity: "error",
        message:
          "formatting this file would change its data, so it was left as it is; write it in a plainer YAML style (plain or quoted strings, no multi-line plain scalars)",
        file,
        line: 1,
        column: 1,
      },
    };
  }
  return { ok: true, text: output, reordered: !same };
}
