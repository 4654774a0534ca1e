/**
 * ajv standalone code, assembled from ajv's own structures rather than from its text. `ajv.compile` with
 * `code.source` leaves on each validate function its name, its body and the scope values it uses (schema
 * constants, patterns, helper functions, formats, other validators); this module writes those out as ajv's
 * `standaloneCode` does, with three differences:
 *
 * - no `export` statements: the caller gets each validator's name from `source.validateName` and wires
 *   the names itself, so that nothing in a schema (a description, a property name, an enum value) can
 *   be mistaken for an export;
 * - every helper function is chosen by what it is (its `ref`), not by the code ajv would write for it:
 *   ajv's helpers become named imports from `toolgate/compiled` instead of `require(…)`, formats become
 *   `ajvFormat("name")`, and a helper this module does not know is an error;
 * - schema constants that no generated code refers to are left out (at 500 tools they are a large share
 *   of the module, and parsing is most of a compiled controller's start-up).
 */
import { createRequire } from "node:module";
import { fullFormats } from "ajv-formats/dist/formats.js";
import {
  type Code,
  code,
  EmitError,
  ident,
  joinCode,
  parsedJson,
  stringLiteral,
  verbatim,
} from "../codegen/emit.js";
import { isSchemaPattern, schemaPattern } from "../runtime/ajv-validator.js";
import { JSON_EQUAL_FOR_AJV } from "../validation/json-equal.js";

/** What `ajv.compile` leaves on a validate function when `code.source` is on (ajv's `SourceCode`). */
interface SourceCode {
  readonly validateName: ScopeName;
  readonly validateCode: string;
  readonly scopeValues: { readonly [prefix: string]: Iterable<ScopeName> | undefined };
  readonly evaluated?: unknown;
}

/** A name in ajv's value scope (`ValueScopeName`): its text, prefix and the value it stands for. */
interface ScopeName {
  readonly prefix: string;
  readonly value?: { readonly ref: unknown; readonly key?: unknown };
  toString(): string;
}

/** A validate function as `ajv.compile` returns it with `code.source`. */
export interface SourcedValidate {
  readonly source?: SourceCode;
}

// The very objects ajv's keywords use (CommonJS, through the same module cache), to be recognised by identity.
const ajvRuntime = (name: string): unknown =>
  (createRequire(import.meta.url)(`ajv/dist/runtime/${name}`) as { default: unknown }).default;

/** The helpers of ajv's generated code and the `toolgate/compiled` export that replaces each. */
const HELPERS: ReadonlyMap<unknown, string> = new Map<unknown, string>([
  [ajvRuntime("ucs2length"), "ajvUcs2length"],
  // Not ajv's own equality (fast-deep-equal): schemas are compiled with JSON equality (`withJsonEqual`),
  // and code that still refers to ajv's is refused below rather than run with another function.
  [JSON_EQUAL_FOR_AJV, "ajvEqual"],
  [ajvRuntime("validation_error"), "AjvValidationError"],
  [schemaPattern, "schemaPattern"],
]);

/** The names a group of validators needs from `toolgate/compiled`. */
export type RuntimeHelper =
  | "ajvUcs2length"
  | "ajvEqual"
  | "AjvValidationError"
  | "schemaPattern"
  | "ajvFormat";

/** The standalone code of some validators, and the name each one has in it. */
export interface StandaloneValidators {
  /** The declarations, to be placed in a scope of their own. */
  readonly code: Code;
  /** For each key given, the identifier of its validate function in `code`. */
  readonly names: ReadonlyMap<string, Code>;
}

const SCHEMA_NAME = /\bschema\d+\b/g;

/**
 * The standalone code of `validators` (compiled by one ajv instance with `code.source`), keyed as given.
 * @param helpers collects the `toolgate/compiled` names the code refers to
 * @throws EmitError when ajv's code needs a value this module cannot write as code
 */
export function standaloneValidators(
  validators: ReadonlyMap<string, SourcedValidate>,
  helpers: Set<RuntimeHelper>,
): StandaloneValidators {
  const state = new Map<string, "started" | "completed">();
  // Each piece is one declaration (or one validate function), in ajv's order.
  const pieces: { schemaName?: string; text: string }[] = [];

  const sourceOf = (validate: SourcedValidate, what: string): SourceCode => {
    if (validate.source === undefined) {
      throw new EmitError(`${what} was compiled without its source; ajv needs the code.source option`);
    }
    return validate.source;
  };

  /** Mirrors ajv standalone's `validateCode`: a validator's scope values, then its function. */
  const emitValidator = (source: SourceCode): void => {
    const name = String(source.validateName);
    if (state.get(name) === "completed") return;
    state.set(name, "started");
    emitScope(source.scopeValues);
    pieces.push({ text: source.validateCode });
    if (source.evaluated !== undefined) {
      const evaluated = String(source.evaluated);
      // ajv writes what a validator evaluated as an object literal of property names; a `__proto__` there
      // would set a prototype (the loader refuses such properties, so this never happens).
      if (evaluated.includes("__proto__")) {
        throw new EmitError(`ajv's code for ${name} names a property "__proto__", which cannot be compiled`);
      }
      pieces.push({ text: `${ident(name)}.evaluated = ${evaluated};` });
    }
  };

  /** Mirrors ajv's `ValueScope.scopeCode`: one declaration per value, each written once. */
  const emitScope = (values: SourceCode["scopeValues"]): void => {
    for (const prefix of Object.keys(values)) {
      for (const name of values[prefix] ?? []) {
        const text = String(name);
        if (state.has(text)) continue;
        state.set(text, "started");
        emitValue(name);
        state.set(text, "completed");
      }
    }
  };

  const emitValue = (name: ScopeName): void => {
    const id = ident(String(name));
    const value = name.value;
    if (value === undefined) throw new EmitError(`ajv's code refers to ${String(name)}, which has no value`);
    const { ref } = value;
    switch (name.prefix) {
      case "schema":
        // Read as JSON is (`JSON.parse`), never as an object literal: in a literal, a `"__proto__"` key of an
        // `enum`, `const` or `default` value would set the object's prototype instead of being data.
        pieces.push({ schemaName: String(name), text: code`const ${id} = ${parsedJson(ref)};`.toString() });
        return;
      case "pattern":
        helpers.add("schemaPattern");
        pieces.push({ text: code`const ${id} = ${patternCode(ref)};`.toString() });
        return;
      case "func":
      case "Error": {
        const helper = HELPERS.get(ref);
        if (helper !== undefined) {
          helpers.add(helper as RuntimeHelper);
          pieces.push({ text: code`const ${id} = ${ident(helper)};`.toString() });
          return;
        }
        if (ref === Object.prototype.hasOwnProperty) {
          pieces.push({ text: code`const ${id} = Object.prototype.hasOwnProperty;`.toString() });
          return;
        }
        throw new EmitError(`ajv's code needs a helper function that toolgate/compiled does not provide`);
      }
      case "formats": {
        if (ref instanceof RegExp) {
          pieces.push({ text: code`const ${id} = new RegExp(${ref.source}, ${ref.flags});`.toString() });
          return;
        }
        const key = value.key;
        const known: { readonly [name: string]: unknown } = fullFormats;
        if (typeof key === "string" && Object.hasOwn(known, key) && known[key] === ref) {
          helpers.add("ajvFormat");
          pieces.push({ text: code`const ${id} = ajvFormat(${stringLiteral(key)});`.toString() });
          return;
        }
        throw new EmitError(
          `ajv's code needs the format ${JSON.stringify(key)}, which toolgate does not provide`,
        );
      }
      case "validate":
        if (typeof ref === "function") {
          emitValidator(sourceOf(ref as SourcedValidate, `the validator ${String(name)}`));
          return;
        }
        break;
      case "root":
      case "wrapper":
        if (typeof ref === "object" && ref !== null) {
          const env = ref as { validate?: SourcedValidate; validateName?: ScopeName };
          if (env.validateName === undefined || env.validate === undefined) break;
          const target = String(env.validateName);
          pieces.push({ text: code`const ${id} = {validate: ${ident(target)}};`.toString() });
          if (state.get(target) !== "started")
            emitValidator(sourceOf(env.validate, `the validator ${target}`));
          return;
        }
        break;
      default:
        break;
    }
    throw new EmitError(`ajv's code needs a value of kind "${name.prefix}", which toolgate cannot compile`);
  };

  const names = new Map<string, Code>();
  for (const [key, validate] of validators) {
    const source = sourceOf(validate, `the validator of ${key}`);
    const name = String(source.validateName);
    // A validator already written (the same schema twice, or one reached through another) is not written again.
    if (!state.has(name)) emitValidator(source);
    names.set(key, ident(name));
  }

  const used = new Set<string>();
  for (const piece of pieces) {
    if (piece.schemaName !== undefined) continue;
    for (const [found] of piece.text.matchAll(SCHEMA_NAME)) used.add(found);
  }
  const kept = pieces.filter((p) => p.schemaName === undefined || used.has(p.schemaName));
  // Every call of `require` has been replaced above, by what the value is; the only `require(` left is
  // text inside a string literal or comment of ajv's code (a property name, a pattern, an enum value),
  // where `require\u0028` is the same string and no longer looks like a call.
  const text = kept.map((p) => p.text.replaceAll("require(", "require\\u0028")).join("\n");
  return { code: joinCode([verbatim("ajv-standalone", text)], ""), names };
}

function patternCode(ref: unknown): Code {
  // A pattern compiled by `schemaPattern` (ajv's `code.regExp`) carries its source and flags.
  if (!isSchemaPattern(ref)) throw new EmitError("ajv's code needs a pattern that toolgate did not compile");
  return code`schemaPattern(${ref.source}, ${ref.flags})`;
}
