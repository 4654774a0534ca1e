/**
 * `toolgate fmt`: one canonical layout for policy, tool and test files, written through the `yaml` package's
 * Document API so that every comment stays where it was (before or after the node it belongs to).
 *
 * The layout: known keys in the order the reference documents them (unknown keys keep their order after
 * them); `allow`, `ask`, `deny` and a rule's `tools` sorted and without repeats; `reasons` and `otherwise`
 * sorted by tool name; strings plain where YAML reads them back as the same string, else double-quoted
 * (block scalars stay block scalars); a list of scalars, or a small map of scalars, in flow style when it
 * fits on one line of 110 characters and holds no comment, else block style. Nothing inside a tool's
 * `input_schema` is reordered. Formatting changes no decision (a set or a rule's tool list is a set), and a
 * formatted file formats to itself.
 */
import {
  type Document,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  parseDocument,
  Scalar,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import { OPERATOR_NAMES } from "../runtime/condition.js";
import { URL_KEYS } from "../runtime/match/url.js";

/** The file kinds `fmt` knows. */
export type FormatKind = "policy" | "tools" | "tests";

/** The result of formatting one file's text. */
export type FormatResult =
  | { readonly ok: true; readonly text: string; readonly kind: FormatKind | "other" }
  | { readonly ok: false; readonly message: string; readonly line: number; readonly column: number };

/** The width a flow collection must fit in, with its indentation and key (the repository's print width). */
export const FORMAT_WIDTH = 110;

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
const TOOLS_KEYS = ["$schema", "tools"];
const TOOL_KEYS = ["name", "description", "input_schema"];
const TESTS_KEYS = ["$schema", "tests"];
const TEST_KEYS = ["name", "call", "context", "expect", "rule"];
const CALL_KEYS = ["tool", "arguments"];
/**
 * Operators in the order the reference lists them: a condition's keys are put in this order; then the keys of a
 * command prefix's object form (after its `prefix`) and of a `url` operator.
 */
const OPERATOR_KEYS: readonly string[] = [...OPERATOR_NAMES, "options", ...URL_KEYS];

/** What kind of file a document is, from its top-level keys. */
export function formatKindOf(data: unknown): FormatKind | "other" {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return "other";
  // The configuration file names the policy; fmt leaves it as it is.
  if (Object.hasOwn(data, "policy")) return "other";
  if (Object.hasOwn(data, "tests")) return "tests";
  if (Object.hasOwn(data, "tools") && !Object.hasOwn(data, "version")) return "tools";
  if (Object.hasOwn(data, "version") || Object.hasOwn(data, "rules") || Object.hasOwn(data, "allow"))
    return "policy";
  return "other";
}

function keyOf(pair: Pair): string | undefined {
  return isScalar(pair.key) && typeof pair.key.value === "string" ? pair.key.value : undefined;
}

function valueAt(map: YAMLMap, key: string): unknown {
  const pair = map.items.find((p) => keyOf(p) === key);
  return pair?.value;
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

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorts a map by key (code-unit order). */
function sortKeys(map: YAMLMap): void {
  map.items = [...map.items].sort((a, b) => compareText(keyOf(a) ?? "", keyOf(b) ?? ""));
}

/** Sorts a list of strings and drops repeats (the first one keeps its comments). */
function sortSet(node: unknown): void {
  if (!isSeq(node) || !node.items.every((item) => isScalar(item) && typeof item.value === "string")) return;
  const seen = new Set<string>();
  const items: Scalar[] = [];
  for (const item of node.items as Scalar[]) {
    const value = item.value as string;
    if (seen.has(value)) continue;
    seen.add(value);
    items.push(item);
  }
  node.items = items.sort((a, b) => compareText(a.value as string, b.value as string));
}

/** Orders the keys of a condition (and the conditions inside `any`, `all`, `not`) in operator order. */
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

function itemsOf(node: unknown): YAMLMap[] {
  return isSeq(node) ? (node.items.filter((item) => isMap(item)) as YAMLMap[]) : [];
}

function orderPolicy(root: YAMLMap): void {
  orderKeys(root, POLICY_KEYS);
  for (const key of ["allow", "ask", "deny"]) sortSet(valueAt(root, key));
  const reasons = valueAt(root, "reasons");
  if (isMap(reasons)) sortKeys(reasons);
  const otherwise = valueAt(root, "otherwise");
  if (isMap(otherwise)) {
    sortKeys(otherwise);
    for (const pair of otherwise.items) if (isMap(pair.value)) orderKeys(pair.value, OTHERWISE_KEYS);
  }
  for (const rule of itemsOf(valueAt(root, "rules"))) {
    orderKeys(rule, RULE_KEYS);
    sortSet(valueAt(rule, "tools"));
    for (const key of ["when", "context"]) {
      const conditions = valueAt(rule, key);
      if (isMap(conditions)) for (const pair of conditions.items) orderCondition(pair.value);
    }
  }
}

function orderTools(root: YAMLMap): void {
  orderKeys(root, TOOLS_KEYS);
  for (const tool of itemsOf(valueAt(root, "tools"))) orderKeys(tool, TOOL_KEYS);
}

function orderTests(root: YAMLMap): void {
  orderKeys(root, TESTS_KEYS);
  for (const test of itemsOf(valueAt(root, "tests"))) {
    orderKeys(test, TEST_KEYS);
    const call = valueAt(test, "call");
    if (isMap(call)) orderKeys(call, CALL_KEYS);
  }
}

function hasComment(node: unknown): boolean {
  if (node === null || typeof node !== "object") return false;
  const n = node as { commentBefore?: string | null; comment?: string | null };
  if (n.commentBefore || n.comment) return true;
  if (isPair(node)) return hasComment(node.key) || hasComment(node.value);
  if (isMap(node) || isSeq(node)) return (node.items as unknown[]).some(hasComment);
  return false;
}

/** Resets quoting: a string is written plain when YAML reads it back as the same string. */
function resetQuoting(node: unknown): void {
  if (isScalar(node)) {
    if (
      typeof node.value === "string" &&
      (node.type === Scalar.PLAIN || node.type === Scalar.QUOTE_SINGLE || node.type === Scalar.QUOTE_DOUBLE)
    ) {
      delete node.type;
    }
    return;
  }
  if (isPair(node)) {
    resetQuoting(node.key);
    resetQuoting(node.value);
  } else if (isMap(node) || isSeq(node)) {
    for (const item of node.items as unknown[]) resetQuoting(item);
  }
}

const PLAIN_SAFE = /^[A-Za-z0-9_][A-Za-z0-9_./@+-]*(?: [A-Za-z0-9_./@+()-]+)*$/;

/** The length a value takes in flow style, estimated from its value alone (so that the choice is stable). */
function flowLength(node: unknown): number {
  if (isScalar(node)) {
    const value = node.value;
    if (typeof value === "string")
      return PLAIN_SAFE.test(value) ? value.length : JSON.stringify(value).length;
    return String(value).length;
  }
  if (isSeq(node)) {
    const items = node.items.map(flowLength);
    return 2 + items.reduce((a, b) => a + b, 0) + 2 * Math.max(0, items.length - 1);
  }
  if (isMap(node)) {
    const pairs = node.items.map((pair) => flowLength(pair.key) + 2 + flowLength(pair.value));
    return 4 + pairs.reduce((a, b) => a + b, 0) + 2 * Math.max(0, pairs.length - 1);
  }
  return 4;
}

/** True when a collection may be written in flow style: only scalars and such collections inside. */
function flowable(node: unknown, blockMaps: boolean): boolean {
  if (isScalar(node)) return node.type !== Scalar.BLOCK_LITERAL && node.type !== Scalar.BLOCK_FOLDED;
  if (isSeq(node)) return node.items.every((item) => isScalar(item) && flowable(item, blockMaps));
  if (isMap(node) && !blockMaps) {
    return node.items.every((pair) => isScalar(pair.key) && flowable(pair.value, false));
  }
  return false;
}

/** Keys whose map value stays in block style (the structure of the file, not a small value). */
const BLOCK_MAP_KEYS = new Set([
  "reasons",
  "otherwise",
  "when",
  "context",
  "input_schema",
  "properties",
  "$defs",
]);

/** Chooses flow or block style for every collection, from the top. */
function chooseStyle(node: unknown, indent: number, keyLength: number, blockMap: boolean): void {
  if (!isMap(node) && !isSeq(node)) return;
  const collection = node as YAMLMap | YAMLSeq;
  const fits = indent + keyLength + flowLength(node) <= FORMAT_WIDTH;
  const flow = fits && !hasComment(node) && flowable(node, blockMap) && collection.items.length > 0;
  collection.flow = flow;
  if (flow) return;
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = keyOf(pair) ?? "";
      chooseStyle(pair.value, indent + 2, key.length + 2, BLOCK_MAP_KEYS.has(key));
    }
  } else {
    // A map in a list (a rule, a tool, a test) stays in block style; a list in a list may be flow.
    for (const item of (node as YAMLSeq).items) chooseStyle(item, indent + 2, 2, true);
  }
}

/**
 * Formats one file's text. A file that is not well-formed YAML is not formatted (`ok: false`, with where the
 * parser stopped); `toolgate lint` says more about it.
 * @param kind - what the file is; by default read from its top-level keys.
 */
export function formatYamlText(text: string, kind?: FormatKind): FormatResult {
  const doc: Document.Parsed = parseDocument(text, {
    uniqueKeys: true,
    merge: false,
    strict: true,
    prettyErrors: false,
    version: "1.2",
    schema: "core",
    keepSourceTokens: false,
  });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem !== undefined) {
    const before = text.slice(0, problem.pos[0]).split("\n");
    return {
      ok: false,
      message: `${problem.message.split("\n")[0]}; fix it first (toolgate lint says more)`,
      line: before.length,
      column: (before[before.length - 1]?.length ?? 0) + 1,
    };
  }
  const root = doc.contents as Node | null;
  const found = kind ?? formatKindOf(doc.toJS());
  if (isMap(root)) {
    // The comment above the first key is the file's header: it stays at the top whatever key moves there.
    const first = root.items[0];
    const header = [root.commentBefore, isScalar(first?.key) ? first.key.commentBefore : undefined]
      .filter((c): c is string => typeof c === "string" && c !== "")
      .join("\n");
    if (header !== "") {
      root.commentBefore = header;
      if (isScalar(first?.key)) first.key.commentBefore = null;
    }
    if (found === "policy") orderPolicy(root);
    else if (found === "tools") orderTools(root);
    else if (found === "tests") orderTests(root);
    resetQuoting(root);
    root.flow = false;
    for (const pair of root.items) {
      const key = keyOf(pair) ?? "";
      chooseStyle(pair.value, 0, key.length + 2, BLOCK_MAP_KEYS.has(key));
    }
  }
  const out = doc.toString({
    lineWidth: 0,
    minContentWidth: 0,
    indent: 2,
    indentSeq: true,
    defaultStringType: "PLAIN",
    defaultKeyType: "PLAIN",
    singleQuote: false,
    flowCollectionPadding: true,
    nullStr: "null",
  });
  return { ok: true, text: out, kind: found };
}
