/**
 * Validators for small input schemas built from closures instead of ajv's generated code. Compiling a schema
 * with ajv costs about a millisecond (code generation and `new Function`); a tool schema is most often an
 * object of a few properties with types, lengths, patterns, bounds and enums, for which the same checks can
 * be put together directly.
 *
 * `planValidator` accepts a strict subset of JSON Schema 2020-12 and declines (returns `undefined`) anything
 * else, and anything it is not sure ajv, with toolgate's options (strict, strictTypes, allErrors,
 * ownProperties, the linear-time pattern engine), would accept and validate identically: the caller then
 * compiles the schema with ajv, as it always did. A plan validator reports what `fromAjvValidator` over ajv's
 * validator reports, issue for issue and in the same order: every check below follows the order and the
 * reads of ajv's generated code (keywords of no type first, then the keywords of the declared type; a type
 * error where ajv puts it; `data.x !== undefined && hasOwn(data, "x")` for a property).
 */

import { ajvEqual, ajvUcs2length } from "./ajv-runtime.js";
import { schemaPattern } from "./ajv-validator.js";
import type { ArgumentCheck, ArgumentIssue, ArgumentValidator, JsonSchema } from "./types.js";

/**
 * One compiled schema node. Given a list, it appends the issues of `data` (at JSON pointer `path`) to `issues`
 * and returns true; given `null`, it returns whether `data` has no issue, at the first one found (the fast
 * pass every call makes first: a valid call builds no paths and no issues). Both read `data` as ajv's code
 * does, in its order.
 */
type Check = (data: unknown, path: string, issues: ArgumentIssue[] | null) => boolean;

/** Records an issue; in the fast pass (no list) says to stop. */
function fail(issues: ArgumentIssue[] | null, path: string, message: string): boolean {
  if (issues === null) return false;
  issues.push({ path, message });
  return true;
}

const PASS: Check = () => true;

/** A node that never reports anything: `{}` (ajv generates no code for it, so a property under it is not even read). */
const ALWAYS: unique symbol = Symbol("always valid");

type Node = Check | typeof ALWAYS;

/** The keywords that carry no validation (ajv's metadata and core annotation keywords). */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  "title",
  "description",
  "default",
  "examples",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** The keywords of each declared type that the plan knows (ajv's strictTypes refuses them on another type). */
const TYPE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  string: ["minLength", "maxLength", "pattern"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
  array: ["items", "minItems", "maxItems", "uniqueItems"],
  object: ["properties", "required", "additionalProperties"],
  boolean: [],
  null: [],
};

/** The `$schema` values the plan accepts: what Ajv2020 knows its meta-schema by. */
const DRAFT_2020 = new Set([
  "https://json-schema.org/draft/2020-12/schema",
  "https://json-schema.org/draft/2020-12/schema#",
]);

/**
 * What a module written by `toolgate compile` has in place of a validate function for a schema `planValidator`
 * takes: `verifyCompiledModule` builds the plan validator from the schema in the module's data.
 */
export const PLANNED_VALIDATOR = "plan";

/**
 * Thrown inside the planner when a schema leaves the subset; caught by `planValidator`, so it never escapes. A
 * signal, not an error: toolgate's errors are all of the ToolgateError family.
 */
const DECLINE: unique symbol = Symbol("outside the plan's subset");

function decline(): never {
  throw DECLINE;
}

const VALID: ArgumentCheck = Object.freeze({ ok: true });
const hasOwn = (data: object, key: string): boolean => Object.hasOwn(data, key);

/**
 * A validator for `schema` built without ajv, or `undefined` when the schema is outside the subset the plan
 * knows (then compile it with ajv). The validator's `ArgumentCheck` for any input equals the one
 * `fromAjvValidator(ajv.compile(schema))` gives, with toolgate's ajv options.
 */
export function planValidator(schema: JsonSchema): ArgumentValidator | undefined {
  if (!isPlainObject(schema)) return undefined;
  let check: Node;
  try {
    const { $schema, ...rest } = schema as Record<string, unknown>;
    if (Object.hasOwn(schema, "$schema") && !(typeof $schema === "string" && DRAFT_2020.has($schema)))
      decline();
    check = planNode(rest);
  } catch {
    // DECLINE, or a pattern the engine refuses, a schema too deep for the stack: ajv says what is wrong with it.
    return undefined;
  }
  if (check === ALWAYS) return () => VALID;
  const root = check;
  return (args: unknown): ArgumentCheck => {
    let issues: ArgumentIssue[];
    try {
      if (root(args, "", null)) return VALID;
      issues = [];
      root(args, "", issues);
    } catch (error) {
      // As fromAjvValidator: a value whose reads throw is invalid, never a crash and never a pass.
      const reason = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        issues: [{ path: "", message: `could not be validated (${reason}); send plain JSON data` }],
      };
    }
    // The fast pass found an issue: the full pass finds it too, unless the arguments changed under the
    // reads (a getter), and then they are not valid either.
    if (issues.length === 0)
      return { ok: false, issues: [{ path: "", message: "arguments do not match the input schema" }] };
    return { ok: false, issues };
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

/** A count keyword's value (`minLength`, `maxItems`...): a non-negative safe integer. */
function count(value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) decline();
  return value;
}

function bound(value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value)) decline();
  return value;
}

/** Checks one annotation's value as the meta-schema types it. */
function checkAnnotation(key: string, value: unknown): void {
  switch (key) {
    case "title":
    case "description":
    case "$comment":
      if (typeof value !== "string") decline();
      return;
    case "deprecated":
    case "readOnly":
    case "writeOnly":
      if (typeof value !== "boolean") decline();
      return;
    case "examples":
      if (!Array.isArray(value)) decline();
      return;
    default:
      // `default`: any JSON value (ajv's useDefaults is off, so it is never read).
      return;
  }
}

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The check of ajv's `type` keyword for one type name (strictNumbers: a number is finite). */
function typeTest(type: string): (data: unknown) => boolean {
  switch (type) {
    case "string":
      return (data) => typeof data === "string";
    case "number":
      return (data) => typeof data === "number" && Number.isFinite(data);
    case "integer":
      // ajv: typeof data == "number" && !(data % 1) && !isNaN(data) && isFinite(data)
      return (data) => typeof data === "number" && !((data as number) % 1) && Number.isFinite(data);
    case "boolean":
      return (data) => typeof data === "boolean";
    case "null":
      return (data) => data === null;
    case "array":
      return (data) => Array.isArray(data);
    case "object":
      return (data) => data !== null && typeof data === "object" && !Array.isArray(data);
    default:
      return decline();
  }
}

function planNode(node: unknown): Node {
  if (!isPlainObject(node)) decline();
  const keys = Object.keys(node);
  if (keys.length === 0) return ALWAYS;
  const type = node.type;
  if (type !== undefined && (typeof type !== "string" || !Object.hasOwn(TYPE_KEYWORDS, type))) decline();
  const allowed = type === undefined ? [] : (TYPE_KEYWORDS[type as string] as readonly string[]);
  for (const key of keys) {
    if (key === "type" || key === "enum" || key === "const") continue;
    if (ANNOTATIONS.has(key)) {
      checkAnnotation(key, node[key]);
      continue;
    }
    if (!allowed.includes(key)) decline();
  }

  // Keywords of no type: const, then enum (ajv's rule order), both of JSON scalars compared with ===.
  const untyped: Check[] = [];
  if (Object.hasOwn(node, "const")) {
    const value = node.const;
    if (!isScalar(value)) decline();
    untyped.push((data, path, issues) => {
      return value === data || fail(issues, path, "must be equal to constant");
    });
  }
  if (Object.hasOwn(node, "enum")) {
    const values = node.enum;
    if (!Array.isArray(values) || values.length === 0 || !values.every(isScalar)) decline();
    if (new Set(values).size !== values.length) decline();
    const list = [...values];
    untyped.push((data, path, issues) => {
      for (const value of list) if (data === value) return true;
      return fail(issues, path, "must be equal to one of the allowed values");
    });
  }

  if (type === undefined) {
    if (untyped.length === 0) return PASS; // annotations only: ajv generates code that reads the value.
    return runAll(untyped);
  }

  const typeName = type as string;
  const isType = typeTest(typeName);
  const typeMessage = `must be ${typeName}`;
  const group = typedKeywords(typeName, node);

  const first = untyped.length === 0 ? undefined : runAll(untyped);
  if (group === undefined) {
    // No keyword of the type's group: ajv checks the type first, then the keywords of no type.
    if (first === undefined) {
      return (data, path, issues) => isType(data) || fail(issues, path, typeMessage);
    }
    return (data, path, issues) => {
      if (!isType(data) && !fail(issues, path, typeMessage)) return false;
      return first(data, path, issues);
    };
  }
  if (typeName === "integer") {
    // "integer" has no group of its own: the type is checked first and the number keywords run on any
    // finite number (so 1.5 against {type: integer, minimum: 2} reports both).
    const numberKeywords = group;
    return (data, path, issues) => {
      if (!isType(data) && !fail(issues, path, typeMessage)) return false;
      if (first !== undefined && !first(data, path, issues)) return false;
      if (typeof data === "number" && Number.isFinite(data)) return numberKeywords(data, path, issues);
      return true;
    };
  }
  // The type has a group of keywords: the keywords of no type run first, then the group's keywords when the
  // type matches, else the type error.
  const typed = group;
  if (first === undefined) {
    return (data, path, issues) =>
      isType(data) ? typed(data, path, issues) : fail(issues, path, typeMessage);
  }
  return (data, path, issues) => {
    if (!first(data, path, issues)) return false;
    return isType(data) ? typed(data, path, issues) : fail(issues, path, typeMessage);
  };
}

/**
 * The checks one after the other. (Unrolled for the few checks a node has: a validator runs on every call of a
 * tool, and a closure per count is faster than a loop over an array.)
 */
function runAll(checks: readonly Check[]): Check {
  const [a, b, c] = checks as Check[];
  switch (checks.length) {
    case 0:
      return PASS;
    case 1:
      return a as Check;
    case 2:
      return (data, path, issues) => (a as Check)(data, path, issues) && (b as Check)(data, path, issues);
    case 3:
      return (data, path, issues) =>
        (a as Check)(data, path, issues) &&
        (b as Check)(data, path, issues) &&
        (c as Check)(data, path, issues);
    default: {
      const list = [...checks];
      const n = list.length;
      return (data, path, issues) => {
        for (let i = 0; i < n; i++) if (!(list[i] as Check)(data, path, issues)) return false;
        return true;
      };
    }
  }
}

/** The checks of the keywords of a type's group, in ajv's order, or `undefined` when the node has none. */
function typedKeywords(type: string, node: Record<string, unknown>): Check | undefined {
  // ajv uses a type's group (and reports the type error in its else branch) when the node has any keyword of
  // the group, even one that checks nothing.
  if (!(TYPE_KEYWORDS[type] as readonly string[]).some((key) => Object.hasOwn(node, key))) return undefined;
  switch (type) {
    case "number":
    case "integer":
      return numberKeywords(node);
    case "string":
      return stringKeywords(node);
    case "array":
      return arrayKeywords(node);
    case "object":
      return objectKeywords(node);
    default:
      return undefined;
  }
}

function numberKeywords(node: Record<string, unknown>): Check | undefined {
  const checks: Check[] = [];
  // ajv's order: maximum, minimum, exclusiveMaximum, exclusiveMinimum.
  if (Object.hasOwn(node, "maximum")) {
    const limit = bound(node.maximum);
    const message = `must be <= ${limit}`;
    checks.push((data, path, issues) => {
      if ((data as number) > limit && !fail(issues, path, message)) return false;
      return true;
    });
  }
  if (Object.hasOwn(node, "minimum")) {
    const limit = bound(node.minimum);
    const message = `must be >= ${limit}`;
    checks.push((data, path, issues) => {
      if ((data as number) < limit && !fail(issues, path, message)) return false;
      return true;
    });
  }
  if (Object.hasOwn(node, "exclusiveMaximum")) {
    const limit = bound(node.exclusiveMaximum);
    const message = `must be < ${limit}`;
    checks.push((data, path, issues) => {
      if ((data as number) >= limit && !fail(issues, path, message)) return false;
      return true;
    });
  }
  if (Object.hasOwn(node, "exclusiveMinimum")) {
    const limit = bound(node.exclusiveMinimum);
    const message = `must be > ${limit}`;
    checks.push((data, path, issues) => {
      if ((data as number) <= limit && !fail(issues, path, message)) return false;
      return true;
    });
  }
  return checks.length === 0 ? undefined : runAll(checks);
}

function stringKeywords(node: Record<string, unknown>): Check | undefined {
  const checks: Check[] = [];
  // ajv's order: maxLength, minLength, pattern; lengths count code points (ucs2length).
  if (Object.hasOwn(node, "maxLength")) {
    const limit = count(node.maxLength);
    const message = `must NOT have more than ${limit} characters`;
    checks.push((data, path, issues) => {
      if (ajvUcs2length(data as string) > limit && !fail(issues, path, message)) return false;
      return true;
    });
  }
  if (Object.hasOwn(node, "minLength")) {
    const limit = count(node.minLength);
    const message = `must NOT have fewer than ${limit} characters`;
    checks.push((data, path, issues) => {
      if (ajvUcs2length(data as string) < limit && !fail(issues, path, message)) return false;
      return true;
    });
  }
  if (Object.hasOwn(node, "pattern")) {
    const source = node.pattern;
    if (typeof source !== "string") decline();
    // The meta-schema's `format: regex` (ajv-formats): a JavaScript unicode regex without a `\Z` anchor.
    if (/[^\\]\\Z/.test(source)) decline();
    try {
      new RegExp(source, "u");
    } catch {
      decline();
    }
    const regex = schemaPattern(source, "u");
    const message = `must match pattern "${source}"`;
    checks.push((data, path, issues) => {
      if (!regex.test(data as string) && !fail(issues, path, message)) return false;
      return true;
    });
  }
  return checks.length === 0 ? undefined : runAll(checks);
}

/** The scalar type names `uniqueItems` compares with a map of seen items (ajv's fast path). */
const HASHED_ITEM_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

function arrayKeywords(node: Record<string, unknown>): Check | undefined {
  const checks: Check[] = [];
  // ajv's order: maxItems, minItems, items (which ajv puts before uniqueItems), uniqueItems.
  if (Object.hasOwn(node, "maxItems")) {
    const limit = count(node.maxItems);
    const message = `must NOT have more than ${limit} items`;
    checks.push((data, path, issues) => {
      if ((data as unknown[]).length > limit && !fail(issues, path, message)) return false;
      return true;
    });
  }
  if (Object.hasOwn(node, "minItems")) {
    const limit = count(node.minItems);
    const message = `must NOT have fewer than ${limit} items`;
    checks.push((data, path, issues) => {
      if ((data as unknown[]).length < limit && !fail(issues, path, message)) return false;
      return true;
    });
  }
  let itemType: string | undefined;
  if (Object.hasOwn(node, "items")) {
    const items = node.items;
    const item = planNode(items);
    const schemaType = (items as Record<string, unknown>).type;
    itemType = typeof schemaType === "string" ? schemaType : undefined;
    if (item !== ALWAYS) {
      checks.push((data, path, issues) => {
        const list = data as unknown[];
        const length = list.length;
        for (let i = 0; i < length; i++) if (!item(list[i], `${path}/${i}`, issues)) return false;
        return true;
      });
    }
  }
  if (Object.hasOwn(node, "uniqueItems")) {
    const unique = node.uniqueItems;
    if (typeof unique !== "boolean") decline();
    if (unique) {
      checks.push(
        itemType !== undefined && HASHED_ITEM_TYPES.has(itemType)
          ? hashedUnique(typeTest(itemType))
          : deepUnique,
      );
    }
  }
  // A keyword of the group that checks nothing (`uniqueItems: false`, `items: {}`) still makes ajv report the
  // type error in the group's else branch.
  return runAll(checks);
}

function duplicateMessage(j: number, i: number): string {
  return `must NOT have duplicate items (items ## ${j} and ${i} are identical)`;
}

/**
 * ajv's `uniqueItems` for items of one scalar type: from the last item down, items of another type skipped,
 * the others keyed in a plain object by their string form (so 0 and -0 are the same item, and, as in ajv, a
 * string "__proto__" is never found again). The first duplicate found is the one reported.
 */
function hashedUnique(isItemType: (data: unknown) => boolean): Check {
  return (data, path, issues) => {
    const list = data as unknown[];
    let i = list.length;
    if (i > 1) {
      const indices: Record<string, unknown> = {};
      for (; i--; ) {
        const item = list[i];
        if (!isItemType(item)) continue;
        const key = item as unknown as string;
        if (typeof indices[key] === "number") {
          return fail(issues, path, duplicateMessage(indices[key] as number, i));
        }
        indices[key] = i;
      }
    }
    return true;
  };
}

/** ajv's `uniqueItems` for any items: every pair, from the end, with JSON equality. */
const deepUnique: Check = (data, path, issues) => {
  const list = data as unknown[];
  let i = list.length;
  if (i > 1) {
    for (; i--; ) {
      for (let j = i; j--; ) {
        if (ajvEqual(list[i], list[j])) {
          return fail(issues, path, duplicateMessage(j, i));
        }
      }
    }
  }
  return true;
};

function objectKeywords(node: Record<string, unknown>): Check | undefined {
  const checks: Check[] = [];
  // ajv's order: required, additionalProperties, properties.
  let names: string[] = [];
  if (Object.hasOwn(node, "properties")) {
    const properties = node.properties;
    if (!isPlainObject(properties)) decline();
    names = Object.keys(properties);
    if (names.includes("__proto__")) decline();
  }
  if (Object.hasOwn(node, "required")) {
    const required = node.required;
    if (!Array.isArray(required) || !required.every((name) => typeof name === "string")) decline();
    if (new Set(required).size !== required.length || required.includes("__proto__")) decline();
    const requiredNames = [...(required as string[])];
    const tails = requiredNames.map((name) => `/${escapePointer(name)}`);
    const n = requiredNames.length;
    if (n > 0) {
      checks.push((data, path, issues) => {
        const object = data as Record<string, unknown>;
        for (let i = 0; i < n; i++) {
          const name = requiredNames[i] as string;
          if (object[name] === undefined || !hasOwn(object, name)) {
            if (!fail(issues, path + (tails[i] as string), "is required")) return false;
          }
        }
        return true;
      });
    }
  }
  if (Object.hasOwn(node, "additionalProperties")) {
    const additional = node.additionalProperties;
    const known = isKnown(names);
    if (additional === false) {
      checks.push((data, path, issues) => {
        for (const key of Object.keys(data as object)) {
          if (!known(key) && !fail(issues, `${path}/${escapePointer(key)}`, "is not allowed")) return false;
        }
        return true;
      });
    } else if (additional !== true) {
      const rest = planNode(additional);
      if (rest !== ALWAYS) {
        checks.push((data, path, issues) => {
          const object = data as Record<string, unknown>;
          for (const key of Object.keys(object)) {
            if (!known(key) && !rest(object[key], `${path}/${escapePointer(key)}`, issues)) return false;
          }
          return true;
        });
      }
    }
  }
  if (names.length > 0) {
    const properties = node.properties as Record<string, unknown>;
    const planned: { name: string; tail: string; check: Check }[] = [];
    for (const name of names) {
      const check = planNode(properties[name]);
      if (check !== ALWAYS) planned.push({ name, tail: `/${escapePointer(name)}`, check });
    }
    const n = planned.length;
    const propertyNames = planned.map((p) => p.name);
    const tails = planned.map((p) => p.tail);
    const propertyChecks = planned.map((p) => p.check);
    if (n > 0) {
      checks.push((data, path, issues) => {
        const object = data as Record<string, unknown>;
        for (let i = 0; i < n; i++) {
          const name = propertyNames[i] as string;
          if (object[name] !== undefined && hasOwn(object, name)) {
            if (!(propertyChecks[i] as Check)(object[name], path + (tails[i] as string), issues))
              return false;
          }
        }
        return true;
      });
    }
  }
  return runAll(checks);
}

/**
 * Whether a key is one of `names` (the properties a schema declares): a scan with `===` for the few names
 * of a typical tool (faster than a hash lookup at that size), a `Set` beyond.
 */
function isKnown(names: readonly string[]): (key: string) => boolean {
  if (names.length > 8) {
    const set = new Set(names);
    return (key) => set.has(key);
  }
  const list = [...names];
  const n = list.length;
  return (key) => {
    for (let i = 0; i < n; i++) if (list[i] === key) return true;
    return false;
  };
}
