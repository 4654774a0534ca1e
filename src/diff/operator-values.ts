/**
 * Candidate values from a policy's literals, for the witness calls of `toolgate diff`: each operator's literal
 * gives values just inside and just outside it (a glob filled in several ways and then pushed out of it, a
 * prefix and a sibling, each alternative of a regex, a command with and without more words, chained, quoted
 * or in another case, a url on another scheme, host or port, bounds and the numbers beside them).
 */
import type { OperatorSpec } from "../runtime/condition.js";
import type { CommandPrefixSpec } from "../runtime/match/shell.js";
import type { UrlSpec } from "../runtime/match/url.js";
import type { JsonSchema } from "../runtime/types.js";
import { regexExamples } from "./regex-examples.js";
import { minimalValue, resolveRef } from "./schema-values.js";

/** A field left out of the call. */
export const ABSENT: unique symbol = Symbol("absent");
/** A candidate value of a field (or `ABSENT`). */
export type Value = unknown;

/** Values for one field: `inside` satisfy the operator, `outside` are near misses. */
export interface Candidates {
  readonly inside: Value[];
  readonly outside: Value[];
}

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
export function operatorValues(
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
