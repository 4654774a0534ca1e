/**
 * The simplest value a JSON Schema accepts, for the witness calls of `toolgate diff`: a starting call built
 * from a tool's input schema (and a context from `context_schema`) that the validator then accepts or not.
 * No solver: `const`, the first `enum` entry or branch, a format's example, a regex example, bounds.
 */
import type { JsonSchema } from "../runtime/types.js";
import { regexExamples } from "./regex-examples.js";

const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  email: "ada@example.com",
  "idn-email": "ada@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  "uri-reference": "https://example.com/",
  iri: "https://example.com/",
  "iri-reference": "https://example.com/",
  "uri-template": "https://example.com/{id}",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  date: "2026-01-31",
  time: "12:00:00Z",
  "date-time": "2026-01-31T12:00:00Z",
  "iso-time": "12:00:00",
  "iso-date-time": "2026-01-31T12:00:00",
  duration: "P1D",
  uuid: "00000000-0000-4000-8000-000000000000",
  regex: "^a$",
  "json-pointer": "/a",
  "relative-json-pointer": "0",
  byte: "YQ==",
  int32: "1",
  int64: "1",
  float: "1.5",
  double: "1.5",
  password: "a",
  binary: "a",
};

/** `schema` with its local `$ref`s (`#/...`) followed within `root`; undefined when one leads nowhere. */
export function resolveRef(root: JsonSchema, schema: unknown): JsonSchema | undefined {
  let current = schema;
  for (let depth = 0; depth < 16; depth++) {
    if (current === null || typeof current !== "object") return undefined;
    const ref = (current as JsonSchema).$ref;
    if (typeof ref !== "string" || !ref.startsWith("#")) return current as JsonSchema;
    let target: unknown = root;
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
      target =
        target !== null && typeof target === "object" ? (target as Record<string, unknown>)[key] : undefined;
    }
    current = target;
  }
  return undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The simplest value a schema accepts, as far as can be told without a solver; the validator decides. */
export function minimalValue(schema: unknown, root: JsonSchema, depth = 0): unknown {
  const s = resolveRef(root, schema);
  if (s === undefined || depth > 8) return "a";
  if (Object.hasOwn(s, "const")) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = s[key];
    if (Array.isArray(branches) && branches.length > 0) return minimalValue(branches[0], root, depth + 1);
  }
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  const type =
    types.find((t) => t !== "null") ?? types[0] ?? (s.properties !== undefined ? "object" : "string");
  switch (type) {
    case "string": {
      if (typeof s.format === "string" && FORMAT_EXAMPLES[s.format] !== undefined)
        return FORMAT_EXAMPLES[s.format];
      if (typeof s.pattern === "string") {
        const example = regexExamples(s.pattern, "u", 2)[0];
        if (example !== undefined) return example;
      }
      const min = num(s.minLength) ?? 0;
      const max = num(s.maxLength) ?? Number.POSITIVE_INFINITY;
      return "a".repeat(Math.min(Math.max(min, 1), max));
    }
    case "integer":
    case "number": {
      const lo =
        num(s.minimum) ??
        (num(s.exclusiveMinimum) === undefined ? undefined : (s.exclusiveMinimum as number) + 1);
      const hi =
        num(s.maximum) ??
        (num(s.exclusiveMaximum) === undefined ? undefined : (s.exclusiveMaximum as number) - 1);
      const step = num(s.multipleOf);
      let value = 1;
      if (lo !== undefined && value < lo) value = type === "integer" ? Math.ceil(lo) : lo;
      if (hi !== undefined && value > hi) value = type === "integer" ? Math.floor(hi) : hi;
      if (step !== undefined && step > 0) value = Math.ceil(value / step) * step;
      return value;
    }
    case "boolean":
      return false;
    case "null":
      return null;
    case "array": {
      const count = Math.min(num(s.minItems) ?? 0, 8);
      return Array.from({ length: count }, () => minimalValue(s.items ?? {}, root, depth + 1));
    }
    default: {
      const out: Record<string, unknown> = {};
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      for (const key of Array.isArray(s.required) ? (s.required as string[]) : []) {
        out[key] = minimalValue(properties[key] ?? {}, root, depth + 1);
      }
      return out;
    }
  }
}

/** The most values `boundaryValues` gives for one schema (nested schemas give fewer each). */
const BOUNDARY_CAP = 48;

/** Characters of short strings besides `a` and `z`: another letter, a digit, punctuation, a blank, a capital. */
const FILLERS = ["b", "0", "-", " ", "A"];

/** The keywords whose numbers are bounds: lengths, counts, amounts. */
const BOUND_KEYWORDS = [
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
];

/** Every bound a schema writes anywhere in it (at most 16, in the order met): the other version's hints. */
export function schemaBounds(schema: unknown): number[] {
  const out = new Set<number>();
  const visit = (node: unknown, depth: number): void => {
    if (out.size >= 16 || depth > 16 || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n, depth + 1);
      return;
    }
    for (const key of BOUND_KEYWORDS) {
      const v = num((node as JsonSchema)[key]);
      if (v !== undefined && out.size < 16) out.add(v);
    }
    for (const [key, v] of Object.entries(node))
      if (key !== "enum" && key !== "const" && key !== "default" && key !== "examples") visit(v, depth + 1);
  };
  visit(schema, 0);
  return [...out];
}

function addUnique(out: unknown[], seen: Set<string>, value: unknown, cap: number): void {
  if (out.length >= cap) return;
  const key = JSON.stringify(value);
  if (key === undefined || seen.has(key)) return;
  seen.add(key);
  out.push(value);
}

/** Whole numbers at, below and above each bound (none below 0 or above `most`), and 0 to 3. */
function around(bounds: readonly (number | undefined)[], most: number): number[] {
  const out = new Set<number>([0, 1, 2, 3].filter((n) => n <= most));
  for (const b of bounds) {
    if (b === undefined) continue;
    for (const n of [b - 1, b, b + 1]) if (n >= 0 && n <= most) out.add(Math.floor(n));
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * Values at the edges of what a schema accepts, and just past them: every `const` and `enum` member, each
 * `anyOf`/`oneOf`/`allOf` branch's values, strings at and around the length bounds, pattern and format examples,
 * numbers at, between and past the bounds (and off a `multipleOf`), arrays at and around the item counts (the
 * same item repeated, and distinct ones), with each item's values and each `prefixItems` position's, and objects
 * with each property's values, a required property left out, and one property more. `hints` are bounds of
 * another version of the schema (`schemaBounds`): lengths, counts and amounts are tried around them too, so a
 * bound that only the other version has still meets values of this one. Where two versions of a schema differ in
 * a keyword, the values at one version's edges are where the decisions differ: `toolgate diff` tries them on both
 * sides (the validators decide; no value here is claimed valid).
 */
export function boundaryValues(schema: unknown, root: JsonSchema, hints: readonly number[] = []): unknown[] {
  return new EdgeValues(root, hints).of(schema, 0, BOUNDARY_CAP);
}

class EdgeValues {
  constructor(
    readonly root: JsonSchema,
    readonly hints: readonly number[],
  ) {}

  of(schema: unknown, depth: number, cap: number): unknown[] {
    const out: unknown[] = [];
    const seen = new Set<string>();
    const add = (v: unknown) => addUnique(out, seen, v, cap);
    const s = resolveRef(this.root, schema);
    if (s === undefined || depth > 4) return ["a"];
    add(minimalValue(s, this.root, depth));
    if (Object.hasOwn(s, "const")) add(s.const);
    if (Array.isArray(s.enum)) for (const v of s.enum.slice(0, 16)) add(v);
    // A list of values without a type: those are all it accepts.
    if ((Object.hasOwn(s, "const") || Array.isArray(s.enum)) && s.type === undefined) return out;
    for (const key of ["anyOf", "oneOf", "allOf"] as const) {
      const branches = s[key];
      if (!Array.isArray(branches)) continue;
      const each = Math.max(4, Math.floor(cap / Math.max(branches.length, 1)));
      const { [key]: _, ...beside } = s;
      for (const branch of branches.slice(0, 8)) {
        // The branch written over the keywords beside it.
        const b = resolveRef(this.root, branch);
        if (b !== undefined) for (const v of this.of({ ...beside, ...b }, depth + 1, each)) add(v);
      }
      if (key === "allOf") {
        // Every branch at once (a shallow merge: the validator decides).
        let all: JsonSchema = beside;
        for (const branch of branches) all = { ...all, ...(resolveRef(this.root, branch) ?? {}) };
        for (const v of this.of(all, depth + 1, Math.floor(cap / 2))) add(v);
      }
      return out;
    }
    const types = Array.isArray(s.type)
      ? (s.type as unknown[]).filter((t): t is string => typeof t === "string")
      : typeof s.type === "string"
        ? [s.type]
        : undefined;
    if (types !== undefined && types.length > 1) {
      for (const t of types)
        for (const v of this.of({ ...s, type: t }, depth, Math.floor(cap / types.length))) add(v);
      return out;
    }
    const type =
      types?.[0] ??
      (s.properties !== undefined || s.additionalProperties !== undefined
        ? "object"
        : s.items !== undefined || s.prefixItems !== undefined
          ? "array"
          : undefined);
    switch (type) {
      case "string":
        this.strings(s, add);
        break;
      case "integer":
      case "number":
        this.numbers(s, type, add);
        break;
      case "boolean":
        add(true);
        add(false);
        break;
      case "null":
        add(null);
        break;
      case "array":
        this.arrays(s, depth, add);
        break;
      case "object":
        this.objects(s, depth, cap, add);
        break;
      default:
        // Any value: one of each kind.
        for (const v of ["a", "z", 0, 1.5, true, null, [], {}]) add(v);
    }
    return out;
  }

  strings(s: JsonSchema, add: (v: unknown) => void): void {
    if (typeof s.format === "string" && FORMAT_EXAMPLES[s.format] !== undefined)
      add(FORMAT_EXAMPLES[s.format]);
    const examples = typeof s.pattern === "string" ? regexExamples(s.pattern, "u", 6) : [];
    for (const e of examples) add(e);
    const lengths = around([num(s.minLength), num(s.maxLength), ...this.hints], 64);
    // Each length in `a`s, then in `z`s (a letter no pattern or list of the other version may allow).
    for (const c of ["a", "z"]) for (const n of lengths) add(c.repeat(n));
    // Each of the first pattern examples grown or cut to each length: repeated, with `a`s after it, with `a`s
    // before it (where the pattern is not anchored there, or repeats, it may allow that length).
    for (const e of examples.slice(0, 2)) {
      if (e.length === 0) continue;
      for (const n of lengths) {
        add(e.repeat(Math.ceil(n / e.length)).slice(0, n));
        if (e.length < n) add(e + "a".repeat(n - e.length));
        if (e.length < n) add("a".repeat(n - e.length) + e);
      }
    }
    // Other characters, one and two of them.
    for (const c of FILLERS) for (const n of [1, 2]) add(c.repeat(n));
  }

  numbers(s: JsonSchema, type: string, add: (v: unknown) => void): void {
    const bounds = [
      num(s.minimum),
      num(s.maximum),
      num(s.exclusiveMinimum),
      num(s.exclusiveMaximum),
      ...this.hints,
    ];
    const step = num(s.multipleOf);
    const values = new Set<number>([0, 1, -1]);
    for (const b of bounds) {
      if (b === undefined) continue;
      for (const v of [b - 1, b, b + 1, b - 0.5, b + 0.5]) values.add(v);
      if (type === "integer") for (const v of [Math.floor(b), Math.ceil(b)]) values.add(v);
    }
    if (step !== undefined && step > 0) for (const v of [step, step * 2, step + 1, step / 2]) values.add(v);
    // A fraction: a number an `integer` refuses.
    values.add(1.5);
    for (const v of values) if (Number.isFinite(v)) add(v);
  }

  arrays(s: JsonSchema, depth: number, add: (v: unknown) => void): void {
    const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]) : [];
    const itemSchema = s.items === undefined || typeof s.items === "boolean" ? {} : s.items;
    // The values of `contains` first: an array must hold one of them.
    const items =
      s.contains !== undefined && typeof s.contains !== "boolean" ? this.of(s.contains, depth + 1, 4) : [];
    items.push(...this.of(itemSchema, depth + 1, 16));
    const first = prefix.map((p) => minimalValue(p, this.root, depth + 1));
    const counts = [num(s.minItems), num(s.maxItems), prefix.length === 0 ? undefined : prefix.length];
    const fill = (n: number, pick: (i: number) => unknown) =>
      Array.from({ length: n }, (_, i) => (i < first.length ? first[i] : pick(i)));
    // At each count: the same item n times (a repeat `uniqueItems` refuses), and the item first with n - 1 others
    // after it, all distinct where there are as many; every count with one item before the next item.
    const counted = around([...counts, ...this.hints], 10);
    for (const item of items.slice(0, 8)) {
      const others = items.filter((v) => v !== item);
      for (const n of counted) {
        add(fill(n, () => item));
        add(
          fill(n, (i) =>
            i === first.length ? item : others[(i - first.length - 1) % Math.max(others.length, 1)],
          ),
        );
      }
    }
    // Each position of the tuple with each of its values, the others minimal.
    prefix.forEach((p, i) => {
      for (const v of this.of(p, depth + 1, 8)) {
        const tuple = [...first];
        tuple[i] = v;
        add(tuple);
      }
    });
  }

  objects(s: JsonSchema, depth: number, cap: number, add: (v: unknown) => void): void {
    const base = minimalValue(s, this.root, depth);
    const object = base !== null && typeof base === "object" && !Array.isArray(base) ? (base as object) : {};
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    const names = Object.keys(properties).slice(0, 12);
    const each = Math.max(4, Math.floor(cap / Math.max(names.length + 1, 1)));
    for (const name of names)
      for (const v of this.of(properties[name], depth + 1, each)) add({ ...object, [name]: v });
    for (const name of Array.isArray(s.required) ? (s.required as string[]) : []) {
      const { [name]: _, ...rest } = object as Record<string, unknown>;
      add(rest);
    }
    // One property more, named as no declared property is.
    let extra = "x";
    while (Object.hasOwn(properties, extra)) extra += "x";
    const more = s.additionalProperties;
    // Any value where more are allowed (one of each kind), one where none are.
    const values =
      more === false ? ["a"] : this.of(more === true || more === undefined ? {} : more, depth + 1, each);
    for (const v of values) add({ ...object, [extra]: v });
  }
}
