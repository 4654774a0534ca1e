/**
 * Generated witness calls for `toolgate diff`: for the tools of the statements that changed, calls built
 * from the tool's input schema and the literals of both versions of the policy. Each operator's literal
 * gives values just inside and just outside it (a glob filled in several ways and then pushed out of it, a
 * prefix and a sibling, each alternative of a regex, a command with and without more words, chained, quoted
 * or in another case, bounds and the numbers beside and between them), and the calls vary one field at a
 * time from a call that satisfies the changed statement. Only calls that are valid on a side (arguments
 * against the tool's input schema, context against `context_schema`) are returned; the caller evaluates
 * both policies and keeps those whose action differs.
 */
import { fieldSchema } from "../config/check-policy.js";
import { canonicalJson } from "../runtime/canonical-json.js";
import type { ConditionSpec, OperatorSpec } from "../runtime/condition.js";
import type { CommandPrefixSpec } from "../runtime/match/shell.js";
import type { UrlSpec } from "../runtime/match/url.js";
import type { StatementSpec } from "../runtime/policy.js";
import type { JsonSchema, ToolContext } from "../runtime/types.js";
import { regexExamples } from "./regex-examples.js";

/** A field left out of the call. */
const ABSENT: unique symbol = Symbol("absent");
type Value = unknown;

/** Values for one field: `inside` satisfy the operator, `outside` are near misses. */
interface Candidates {
  readonly inside: Value[];
  readonly outside: Value[];
}

/** What `generateWitnesses` needs to know about one tool. */
export interface WitnessRequest {
  readonly tool: string;
  /** The tool's input schema on each side that declares the tool (one or two). */
  readonly schemas: readonly JsonSchema[];
  /** `context_schema` of each side that has one. */
  readonly contextSchemas: readonly JsonSchema[];
  /** The versions of the statements on this tool that changed (both sides). */
  readonly changed: readonly StatementSpec[];
  /** Every other statement on this tool (both sides): their literals are tried too. */
  readonly others: readonly StatementSpec[];
  /** True when the call is valid on at least one side (the controller's validators). */
  readonly isValid: (args: unknown, context: ToolContext) => boolean;
  /** The most calls to return. */
  readonly limit?: number;
}

/** A generated call: arguments and context. */
export interface WitnessCall {
  readonly arguments: unknown;
  readonly context: ToolContext;
}

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

function resolveRef(root: JsonSchema, schema: unknown): JsonSchema | undefined {
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
export function minimalValue(schema: unknown, root: JsonSchema, depth = 0): Value {
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

// ---------------------------------------------------------------------------------------------------------
// Literal → values

function caseVariants(s: string): string[] {
  const out = [s.toUpperCase(), s.toLowerCase()];
  if (s.length > 0) out.push((s[0] as string).toUpperCase() + s.slice(1));
  return out.filter((v) => v !== s);
}

function stringNear(s: string): string[] {
  const out = [`${s}x`, `x${s}`, ...caseVariants(s)];
  if (s.length > 1) out.push(s.slice(0, -1));
  return out;
}

function scalarNear(v: unknown): Value[] {
  if (typeof v === "string") return stringNear(v);
  if (typeof v === "number") return [v - 1, v + 1, v + 0.5, -v];
  if (typeof v === "boolean") return [!v];
  if (v === null) return ["null", 0];
  return [];
}

/** `{a,b}` alternatives expanded (nested ones too), at most 16 globs. */
function expandBraces(glob: string): string[] {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "{") {
      if (depth === 0) open = i;
      depth++;
    } else if (c === "}" && depth > 0) {
      depth--;
      if (depth === 0) {
        const inner = glob.slice(open + 1, i);
        const parts: string[] = [];
        let d = 0;
        let start = 0;
        for (let j = 0; j < inner.length; j++) {
          const ch = inner[j];
          if (ch === "\\") j++;
          else if (ch === "{") d++;
          else if (ch === "}") d--;
          else if (ch === "," && d === 0) {
            parts.push(inner.slice(start, j));
            start = j + 1;
          }
        }
        parts.push(inner.slice(start));
        const head = glob.slice(0, open);
        const tail = glob.slice(i + 1);
        return parts.flatMap((p) => expandBraces(head + p + tail)).slice(0, 16);
      }
    }
  }
  return [glob];
}

/** One segment of a glob with its wildcards filled: `star` for `*`, `one` for `?`. */
function fillSegment(segment: string, star: string, one: string): string {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === "\\" && i + 1 < segment.length) {
      out += segment[++i];
    } else if (c === "*") {
      while (segment[i + 1] === "*") i++;
      out += star;
    } else if (c === "?") out += one;
    else if (c === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end < 0) {
        out += c;
        continue;
      }
      const body = segment.slice(i + 1, end);
      const negated = body.startsWith("!") || body.startsWith("^");
      out += negated ? (body.includes("z") ? "q" : "z") : (body.replace(/^\\/, "")[0] ?? "a");
      i = end;
    } else out += c;
  }
  return out;
}

/** Paths a glob matches, filled in several ways; `dirs` replace a leading `**`. */
function globInstances(glob: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const fills: [string, string, string[]][] = [
    ["", "x", [""]],
    ["x", "q", ["a"]],
    ["a.b", "z", ["a/b"]],
  ];
  for (const expanded of expandBraces(glob)) {
    const segments = expanded.split("/");
    for (const [star, one, deep] of fills) {
      const leading = segments[0] === "**" ? [...deep, ...dirs] : deep;
      for (const dir of leading) {
        const parts: string[] = [];
        segments.forEach((segment, index) => {
          if (segment === "**") {
            const fill = index === 0 ? dir : (deep[0] as string);
            if (fill !== "") parts.push(fill);
          } else parts.push(fillSegment(segment, star, one));
        });
        let path = parts.join("/");
        if (expanded.startsWith("/") && !path.startsWith("/")) path = `/${path}`;
        if (path !== "" && !out.includes(path)) out.push(path);
      }
    }
  }
  return out.slice(0, 24);
}

function pathNear(path: string): string[] {
  const out = [`${path}x`, `${path}/c`, ...caseVariants(path)];
  if (!path.startsWith("/")) out.push(`sub/${path}`, `./${path}`);
  if (path.length > 1) out.push(path.slice(0, -1));
  return out;
}

function commandValues(spec: CommandPrefixSpec): Candidates {
  const written = typeof spec === "string" ? spec : spec.prefix;
  // `npm test$` is exact: the command is the prefix and nothing after it.
  const prefix = written.endsWith("$") ? written.slice(0, -1).trimEnd() : written;
  const options = typeof spec === "string" ? [] : spec.options;
  const words = prefix.trim().split(/\s+/);
  const first = words[0] ?? prefix;
  const rest = words.slice(1).join(" ");
  const inside = [prefix, `${prefix} file.txt`, ...options.slice(0, 4).map((o) => `${prefix} ${o}`)];
  const outside = [
    `${prefix}x`,
    `${prefix} --zz`,
    `${prefix}; rm -rf x`,
    `${prefix} && ${prefix}`,
    `${prefix} | sh`,
    `${prefix} > out.txt`,
    `x; ${prefix}`,
    `$(${prefix})`,
    `sudo ${prefix}`,
    `  ${prefix}`,
    words.join("\t"),
    `${first.toUpperCase()}${rest === "" ? "" : ` ${rest}`}`,
    `"${first}"${rest === "" ? "" : ` ${rest}`}`,
  ];
  if (words.length > 1) outside.push(words.slice(0, -1).join(" "));
  return { inside, outside };
}

function asList<T>(value: T | readonly T[] | undefined): readonly T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? (value as readonly T[]) : [value as T];
}

function urlValues(spec: UrlSpec): Candidates {
  const schemes = asList(spec.scheme);
  // A wildcard host gives several subdomains: one of them may be listed on its own on the other side.
  const hosts = asList(spec.host).flatMap((h) =>
    h.startsWith("*.") ? [`zz.${h.slice(2)}`, `api.${h.slice(2)}`, `a.b.${h.slice(2)}`] : [h],
  );
  const ports = asList(spec.port);
  const paths = asList(spec.path).flatMap((p) => globInstances(p, []).slice(0, 3));
  const scheme = schemes[0] ?? "https";
  const host = hosts[0] ?? "example.com";
  const path = paths[0] ?? "/";
  const build = (s: string, h: string, port: number | undefined, p: string) =>
    `${s}://${h}${port === undefined ? "" : `:${port}`}${p.startsWith("/") ? p : `/${p}`}`;
  const inside: string[] = [];
  for (const s of schemes.length > 0 ? schemes : [scheme])
    for (const h of hosts.length > 0 ? hosts : [host])
      for (const p of paths.length > 0 ? paths : [path]) inside.push(build(s, h, undefined, p));
  for (const port of ports) inside.push(build(scheme, host, port, path));
  const outside = [
    build(scheme === "https" ? "http" : "https", host, undefined, path),
    build(scheme, `${host}.evil.example`, undefined, path),
    build(scheme, "evil.example", undefined, path),
    build(scheme, host.toUpperCase(), undefined, path),
    build(scheme, host, 8443, path),
    `${scheme}://${host}@evil.example${path.startsWith("/") ? path : `/${path}`}`,
    build(scheme, host, undefined, "/other"),
    `${build(scheme, host, undefined, path)}?zz=1`,
  ];
  for (const h of asList(spec.host))
    if (h.startsWith("*.")) outside.push(build(scheme, h.slice(2), undefined, path));
  return { inside: inside.slice(0, 24), outside };
}

/** Values for one field's operators: every operator's, the conjunction first. */
function operatorValues(
  op: OperatorSpec,
  schema: JsonSchema | undefined,
  root: JsonSchema,
  dirs: readonly string[],
): Candidates {
  const inside: Value[] = [];
  const outside: Value[] = [];
  const add = (c: Candidates) => {
    inside.push(...c.inside);
    outside.push(...c.outside);
  };
  if (op.equals !== undefined) add({ inside: [op.equals], outside: scalarNear(op.equals) });
  if (op.in !== undefined) add({ inside: [...op.in], outside: op.in.flatMap(scalarNear) });
  if (op.prefix !== undefined) {
    const p = op.prefix;
    add({ inside: [p, `${p}x`, `${p}/a`], outside: stringNear(p) });
  }
  if (op.path_prefix !== undefined) {
    const base = op.path_prefix.replace(/\/+$/, "") || op.path_prefix;
    add({
      inside: [`${base}/a.txt`, base, `${base}/sub/b.txt`],
      outside: [
        `${base}x`,
        `${base}x/a.txt`,
        `./${base}/a.txt`,
        `${base}/../a.txt`,
        ...caseVariants(`${base}/a.txt`),
        base.slice(0, -1),
      ],
    });
  }
  if (op.glob !== undefined) {
    for (const glob of asList(op.glob)) {
      const instances = globInstances(glob, dirs);
      add({ inside: instances, outside: instances.slice(0, 6).flatMap(pathNear) });
    }
  }
  if (op.regex !== undefined) {
    const pattern = typeof op.regex === "string" ? op.regex : op.regex.pattern;
    const flags = typeof op.regex === "string" ? "" : `${op.regex.flags ?? ""}u`;
    const examples = regexExamples(pattern, flags, 10);
    add({
      inside: examples,
      outside: examples.slice(0, 5).flatMap((e) => [`${e} x`, `x ${e}`, ...caseVariants(e), e.slice(0, -1)]),
    });
  }
  for (const bound of [op.min, op.max]) {
    if (bound === undefined) continue;
    add({ inside: [bound], outside: [bound - 1, bound + 1, bound - 0.5, bound + 0.5] });
  }
  if (op.exists !== undefined) {
    const present = schema === undefined ? "a" : minimalValue(schema, root);
    add(op.exists ? { inside: [present], outside: [ABSENT] } : { inside: [ABSENT], outside: [present] });
  }
  if (op.command !== undefined) for (const spec of op.command) add(commandValues(spec));
  if (op.url !== undefined) add(urlValues(op.url));
  const itemSchema = schema === undefined ? undefined : resolveRef(root, schema.items);
  for (const [key, every] of [
    ["any", false],
    ["all", true],
  ] as const) {
    const inner = op[key];
    if (inner === undefined) continue;
    const c = operatorValues(inner, itemSchema, root, dirs);
    // An element cannot be absent: `exists` inside `any`/`all` gives no array of its own.
    const yes = c.inside.filter((v) => v !== ABSENT).slice(0, 6);
    const no = c.outside.filter((v) => v !== ABSENT).slice(0, 6);
    add({
      inside: [...yes.map((v) => [v]), ...(every ? [[]] : [])],
      outside: [
        ...no.map((v) => [v]),
        ...yes.slice(0, 3).flatMap((v) => no.slice(0, 2).map((w) => [v, w])),
        ...(every ? [] : [[]]),
      ],
    });
  }
  if (op.not !== undefined) {
    const c = operatorValues(op.not, schema, root, dirs);
    add({ inside: c.outside, outside: c.inside });
  }
  if (schema !== undefined && Array.isArray(schema.enum)) outside.push(...schema.enum);
  return { inside, outside };
}

function keyOf(value: Value): string {
  return value === ABSENT ? "\u0000absent" : canonicalJson(value);
}

/** Field path → candidate values, gathered from conditions; literals of earlier conditions first. */
class FieldPool {
  readonly fields = new Map<string, { all: Value[]; seen: Set<string> }>();
  constructor(
    readonly schema: JsonSchema | undefined,
    readonly cap: number,
  ) {}

  addCondition(condition: ConditionSpec | undefined, dirs: readonly string[]): void {
    if (condition === undefined) return;
    for (const [field, op] of Object.entries(condition)) {
      const schema = this.schema === undefined ? undefined : fieldSchema(this.schema, field);
      const c = operatorValues(op, schema, this.schema ?? {}, dirs);
      let entry = this.fields.get(field);
      if (entry === undefined) {
        entry = { all: [], seen: new Set() };
        this.fields.set(field, entry);
      }
      for (const v of [...c.inside, ...c.outside]) {
        const k = keyOf(v);
        if (entry.seen.has(k) || entry.all.length >= this.cap) continue;
        entry.seen.add(k);
        entry.all.push(v);
      }
    }
  }

  /** Numbers between every two numeric literals of a field: an amount between an old and a new bound. */
  addMidpoints(): void {
    for (const entry of this.fields.values()) {
      const numbers = [...new Set(entry.all.filter((v): v is number => typeof v === "number"))].sort(
        (a, b) => a - b,
      );
      for (let i = 0; i + 1 < numbers.length; i++) {
        const a = numbers[i] as number;
        const b = numbers[i + 1] as number;
        for (const mid of [Math.floor((a + b) / 2), (a + b) / 2]) {
          const k = keyOf(mid);
          if (mid > a && mid < b && !entry.seen.has(k)) {
            entry.seen.add(k);
            entry.all.push(mid);
          }
        }
      }
    }
  }
}

/** The values that satisfy a condition, field by field (the first is tried first). */
function insideValues(
  condition: ConditionSpec | undefined,
  schema: JsonSchema | undefined,
  dirs: readonly string[],
): [string, Value[]][] {
  if (condition === undefined) return [];
  return Object.entries(condition).map(([field, op]) => {
    const fs = schema === undefined ? undefined : fieldSchema(schema, field);
    return [field, operatorValues(op, fs, schema ?? {}, dirs).inside];
  });
}

function withField(subject: unknown, field: string, value: Value): unknown {
  const path = field.split(".");
  const copy = (node: unknown, index: number): unknown => {
    const object =
      node !== null && typeof node === "object" && !Array.isArray(node) ? { ...(node as object) } : {};
    const key = path[index] as string;
    if (index === path.length - 1) {
      if (value === ABSENT) delete (object as Record<string, unknown>)[key];
      else (object as Record<string, unknown>)[key] = value;
    } else
      (object as Record<string, unknown>)[key] = copy((object as Record<string, unknown>)[key], index + 1);
    return object;
  };
  return copy(subject, 0);
}

/** Directories that path rules of the tool mention: filled in for a leading `**` of a glob. */
function pathDirs(statements: readonly StatementSpec[]): string[] {
  const dirs = new Set<string>();
  const visit = (op: OperatorSpec) => {
    for (const p of [op.path_prefix, op.prefix]) {
      if (typeof p === "string" && p !== "" && !p.includes(" ")) dirs.add(p.replace(/\/+$/, ""));
    }
    for (const inner of [op.any, op.all, op.not]) if (inner !== undefined) visit(inner);
  };
  for (const s of statements) for (const op of Object.values(s.when ?? {})) visit(op);
  dirs.delete("");
  return [...dirs].slice(0, 6);
}

/**
 * Calls for one tool that may tell the two policies apart, valid on at least one side.
 * @returns at most `limit` calls (default 4000), no two alike.
 */
export function generateWitnesses(request: WitnessRequest): WitnessCall[] {
  const limit = request.limit ?? 4000;
  const schema = request.schemas[request.schemas.length - 1];
  const contextSchema = request.contextSchemas[request.contextSchemas.length - 1];
  const all = [...request.changed, ...request.others];
  const dirs = pathDirs(all);
  const args = new FieldPool(schema, 200);
  const context = new FieldPool(contextSchema, 60);
  for (const s of request.changed) {
    args.addCondition(s.when, dirs);
    context.addCondition(s.context, dirs);
  }
  for (const s of request.others) {
    args.addCondition(s.when, dirs);
    context.addCondition(s.context, dirs);
  }
  args.addMidpoints();
  context.addMidpoints();
  // Every value a context fact may take from an enum: environments and roles are few.
  for (const cs of request.contextSchemas) {
    const properties = (resolveRef(cs, cs)?.properties ?? {}) as Record<string, unknown>;
    for (const [name, prop] of Object.entries(properties)) {
      const p = resolveRef(cs, prop);
      if (p === undefined || !Array.isArray(p.enum)) continue;
      let entry = context.fields.get(name);
      if (entry === undefined) {
        entry = { all: [], seen: new Set() };
        context.fields.set(name, entry);
      }
      for (const v of [...p.enum, ABSENT]) {
        const k = keyOf(v);
        if (!entry.seen.has(k)) {
          entry.seen.add(k);
          entry.all.push(v);
        }
      }
    }
  }

  const out: WitnessCall[] = [];
  const seen = new Set<string>();
  const offer = (a: unknown, c: unknown): boolean => {
    if (out.length >= limit) return false;
    let key: string;
    try {
      key = canonicalJson([a, c]);
    } catch {
      return true;
    }
    if (seen.has(key)) return true;
    seen.add(key);
    if (request.isValid(a, c as ToolContext)) out.push({ arguments: a, context: c as ToolContext });
    return true;
  };

  const baseArgs = schema === undefined ? {} : minimalValue(schema, schema);
  const baseContext = contextSchema === undefined ? {} : minimalValue(contextSchema, contextSchema);
  // A starting call per changed statement that satisfies it (field by field, the first value that keeps
  // the call valid), and the plain minimal call.
  const starts: [unknown, unknown][] = [[baseArgs, baseContext]];
  for (const s of request.changed) {
    let a = baseArgs;
    let c = baseContext;
    for (const [field, values] of insideValues(s.when, schema, dirs)) {
      const fit = values
        .map((v) => withField(a, field, v))
        .find((next) => request.isValid(next, c as ToolContext));
      if (fit !== undefined) a = fit;
    }
    for (const [field, values] of insideValues(s.context, contextSchema, dirs)) {
      const fit = values
        .map((v) => withField(c, field, v))
        .find((next) => request.isValid(a, next as ToolContext));
      if (fit !== undefined) c = fit;
    }
    starts.push([a, c]);
  }
  for (const [a, c] of starts) offer(a, c);
  for (const [a, c] of starts) {
    for (const [field, entry] of args.fields)
      for (const v of entry.all) if (!offer(withField(a, field, v), c)) return out;
    for (const [field, entry] of context.fields)
      for (const v of entry.all) if (!offer(a, withField(c, field, v))) return out;
  }
  return out;
}
