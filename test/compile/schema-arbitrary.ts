/**
 * fast-check arbitraries from JSON Schema: values that mostly fit an input schema (type, properties,
 * required, enum, const, minimum/maximum, minLength/maxLength, pattern, items, minItems/maxItems, anyOf,
 * oneOf, local $ref), mixed with values that do not (random JSON, wrong types, extra properties,
 * out-of-range numbers), so that both the valid and the invalid paths are exercised.
 */
import fc from "fast-check";

type Schema = { readonly [key: string]: unknown } | boolean;

/** Strings worth trying because a policy mentions them (globs, prefixes, commands, hosts). */
export interface ArbitraryHints {
  readonly strings?: readonly string[];
}

const garbage: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(undefined, Number.NaN, -0, "", "__proto__", [], {}),
);

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith("#/") || typeof root !== "object") return undefined;
  let target: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const segment = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (target === null || typeof target !== "object") return undefined;
    target = (target as Record<string, unknown>)[segment];
  }
  return target as Schema | undefined;
}

/** A glob from the policy with its wildcards filled in (`*@example.com` gives `ada@example.com`). */
function instantiate(glob: string): string {
  return glob.replaceAll("**", "a/b").replaceAll("*", "ada").replaceAll("?", "x");
}

/** Mostly valid values of a `format` (some from the policy's strings), or undefined for formats not covered. */
function formatArbitrary(format: string, pool: readonly string[]): fc.Arbitrary<string> | undefined {
  const date = fc.date({ min: new Date("1900-01-01"), max: new Date("2200-01-01"), noInvalidDate: true });
  switch (format) {
    case "email": {
      const hinted = pool.filter((s) => s.includes("@")).map(instantiate);
      return hinted.length > 0 ? fc.oneof(fc.emailAddress(), fc.constantFrom(...hinted)) : fc.emailAddress();
    }
    case "date":
      return date.map((d) => d.toISOString().slice(0, 10));
    case "date-time":
    case "iso-date-time":
      return date.map((d) => d.toISOString());
    case "uuid":
      return fc.uuid();
    case "uri":
    case "url":
      return fc.webUrl();
    case "ipv4":
      return fc.ipV4();
    case "ipv6":
      return fc.ipV6();
    case "hostname":
      return fc.domain();
    case "time":
      return date.map((d) => d.toISOString().slice(11));
    case "iso-time":
      return date.map((d) => d.toISOString().slice(11, 19));
    case "duration":
      return fc.constantFrom("P1D", "PT2H", "P1Y2M3DT4H5M6S", "P2W");
    case "uri-reference":
    case "uri-template":
      return fc.oneof(fc.webUrl(), fc.webPath());
    case "regex":
      return fc.constantFrom("^[a-z]+$", "a|b", "\\d{2,}");
    case "json-pointer":
      return fc
        .array(fc.stringMatching(/^[a-z0-9]*$/), { maxLength: 3 })
        .map((p) => p.map((s) => `/${s}`).join(""));
    case "json-pointer-uri-fragment":
      return fc.constantFrom("#", "#/a", "#/a/0");
    case "relative-json-pointer":
      return fc.constantFrom("0", "1/a", "0#");
    case "byte":
      return fc.base64String({ maxLength: 40 });
    default:
      return undefined;
  }
}

function stringArbitrary(
  schema: { readonly [key: string]: unknown },
  hints: ArbitraryHints,
): fc.Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = Math.min(num(schema.maxLength) ?? 40, minLength + 40);
  const options: fc.Arbitrary<string>[] = [fc.string({ minLength, maxLength, unit: "grapheme-ascii" })];
  options.push(fc.string({ minLength, maxLength, unit: "binary" }));
  if (typeof schema.pattern === "string") {
    try {
      options.push(fc.stringMatching(new RegExp(schema.pattern, "u")).filter((s) => s.length <= 200));
    } catch {
      // A pattern JavaScript cannot parse: plain strings only.
    }
  }
  const pool = hints.strings ?? [];
  const formatted = typeof schema.format === "string" ? formatArbitrary(schema.format, pool) : undefined;
  if (formatted !== undefined) return fc.oneof({ weight: 20, arbitrary: formatted }, ...options);
  if (pool.length > 0) {
    const hinted = fc.constantFrom(...pool);
    options.push(hinted);
    options.push(
      fc
        .tuple(hinted, fc.constantFrom(" ", "/", "", " --x", ";", " && ", "/../"), hinted)
        .map((p) => p.join("")),
    );
    options.push(fc.tuple(hinted, fc.string({ maxLength: 8 })).map(([a, b]) => a + b));
  }
  return fc.oneof(...options);
}

function numberArbitrary(
  schema: { readonly [key: string]: unknown },
  integer: boolean,
): fc.Arbitrary<number> {
  const min =
    num(schema.minimum) ??
    (num(schema.exclusiveMinimum) === undefined
      ? undefined
      : (num(schema.exclusiveMinimum) as number) + (integer ? 1 : 0.5));
  const max =
    num(schema.maximum) ??
    (num(schema.exclusiveMaximum) === undefined
      ? undefined
      : (num(schema.exclusiveMaximum) as number) - (integer ? 1 : 0.5));
  const lo = min ?? -1000;
  const hi = Math.max(max ?? 1000, lo);
  const inRange = integer
    ? fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) })
    : fc.double({ min: lo, max: hi, noNaN: true });
  const edges = fc.constantFrom(lo, hi, lo - 1, hi + 1, 0, 0.5, -1);
  return fc.oneof({ weight: 4, arbitrary: inRange }, { weight: 1, arbitrary: edges });
}

/**
 * An arbitrary for a schema.
 * @param depth guards against recursive `$ref`s.
 */
export function arbitraryForSchema(
  schema: Schema,
  hints: ArbitraryHints = {},
  root: Schema = schema,
  depth = 0,
): fc.Arbitrary<unknown> {
  const typed = typedArbitrary(schema, hints, root, depth);
  return fc.oneof({ weight: 9, arbitrary: typed }, { weight: 1, arbitrary: garbage });
}

function typedArbitrary(
  schema: Schema,
  hints: ArbitraryHints,
  root: Schema,
  depth: number,
): fc.Arbitrary<unknown> {
  if (schema === true || depth > 6) return garbage;
  if (schema === false) return fc.constant(null);
  if (typeof schema.$ref === "string") {
    const target = resolveRef(root, schema.$ref);
    return target === undefined ? garbage : typedArbitrary(target, hints, root, depth + 1);
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return fc.constantFrom(...(schema.enum as unknown[]));
  if ("const" in schema) return fc.constant(schema.const);
  for (const key of ["anyOf", "oneOf"] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0) {
      return fc.oneof(...list.map((s) => typedArbitrary(s as Schema, hints, root, depth + 1)));
    }
  }
  const type = schema.type;
  if (Array.isArray(type)) {
    return fc.oneof(...type.map((t) => typedArbitrary({ ...schema, type: t }, hints, root, depth)));
  }
  switch (type) {
    case "object":
      return objectArbitrary(schema, hints, root, depth);
    case "array": {
      const items =
        schema.items === undefined
          ? garbage
          : arbitraryForSchema(schema.items as Schema, hints, root, depth + 1);
      const minLength = num(schema.minItems) ?? 0;
      const maxLength = Math.min(num(schema.maxItems) ?? 4, minLength + 4);
      return fc.array(items, { minLength, maxLength });
    }
    case "string":
      return stringArbitrary(schema, hints);
    case "integer":
      return numberArbitrary(schema, true);
    case "number":
      return numberArbitrary(schema, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return garbage;
  }
}

function objectArbitrary(
  schema: { readonly [key: string]: unknown },
  hints: ArbitraryHints,
  root: Schema,
  depth: number,
): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(properties))
    model[key] = arbitraryForSchema(sub, hints, root, depth + 1);
  const requiredKeys = required.filter((k) => Object.hasOwn(model, k));
  const record = fc.record(model, { requiredKeys });
  // Now and then: a missing required property or an extra one.
  return fc.oneof(
    { weight: 8, arbitrary: record },
    {
      weight: 1,
      arbitrary: fc
        .tuple(record, fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }))
        .map(([value, key, extra]) => ({
          ...(value as object),
          [key === "" ? "extra" : key]: extra,
        })),
    },
    {
      weight: 1,
      arbitrary: record.map((value) => {
        const copy = { ...(value as Record<string, unknown>) };
        const first = requiredKeys[0];
        if (first !== undefined) delete copy[first];
        return copy;
      }),
    },
  );
}

/** Every string a policy's conditions mention (values of equals/in/prefix/glob/command/regex), for hints. */
export function policyStrings(statements: readonly unknown[]): string[] {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (typeof node === "string") {
      found.add(node);
      // Globs and regexes as literal text are rarely matched: add a plausible instance too.
      found.add(
        node
          .replaceAll("**/", "a/")
          .replaceAll("**", "x/y")
          .replaceAll("*", "z")
          .replace(/^\^/, "")
          .replace(/\$$/, ""),
      );
    } else if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === "object") Object.values(node).forEach(visit);
  };
  for (const statement of statements) {
    const { when, context } = statement as { when?: unknown; context?: unknown };
    visit(when);
    visit(context);
  }
  return [...found].filter((s) => s.length > 0).sort();
}
