/**
 * Builds argument validators from tool input schemas with ajv, in strict mode: no type coercion, no
 * defaults, no `$data`, no remote `$ref` (nothing is ever fetched), `pattern` on the linear-time engine,
 * own properties only, and `format` checked with ajv-formats' full formats (an unknown format is refused).
 */

import { Ajv, type Options } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { fullFormats } from "ajv-formats/dist/formats.js";
import type { AjvValidateFunction } from "../runtime/ajv-validator.js";
import { fromAjvValidator, schemaPattern } from "../runtime/ajv-validator.js";
import { ToolgateError } from "../runtime/errors.js";
import { planValidator } from "../runtime/schema-plan.js";
import type { ArgumentValidator, JsonSchema } from "../runtime/types.js";
import { withJsonEqual } from "./json-equal.js";
import { usePrecompiledMetaSchema } from "./meta-schema.js";

/** The `format` names input schemas may use (ajv-formats' full formats), sorted. */
export const SUPPORTED_FORMATS: readonly string[] = Object.freeze(Object.keys(fullFormats).sort());

/** Which JSON Schema dialect a schema declares through `$schema`. */
export type SchemaDraft = "2020-12" | "draft-07";

/** The ajv options every input schema is compiled with. */
export function ajvOptions(): Options {
  const regExp = Object.assign(schemaPattern, { code: "schemaPattern" });
  return {
    strict: true,
    strictRequired: false,
    strictTypes: true,
    allowUnionTypes: true,
    allErrors: true,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    $data: false,
    // A property is read only when the object itself has it: an argument named `toString` or
    // `constructor` is then what the caller sent (or absent), never Object.prototype's member.
    ownProperties: true,
    validateFormats: true,
    formats: fullFormats,
    addUsedSchema: false,
    code: { regExp, optimize: 1 },
  };
}

/** The draft a schema declares; 2020-12 when it declares none. */
export function schemaDraft(schema: JsonSchema): SchemaDraft | { unsupported: string } {
  const declared = schema.$schema;
  if (declared === undefined) return "2020-12";
  if (typeof declared !== "string") return { unsupported: String(declared) };
  if (/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/.test(declared)) return "2020-12";
  if (/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/.test(declared)) return "draft-07";
  return { unsupported: declared };
}

/**
 * What `ValidatorFactory.compile` returns. `validate` is ajv's function, absent when the schema was small
 * enough for `planValidator` to build the validator without ajv.
 */
export type CompiledSchema =
  | { ok: true; validator: ArgumentValidator; validate?: AjvValidateFunction }
  | { ok: false; message: string };

/**
 * The validators compiled with the default options, by the schema object they were compiled from, with that
 * schema's JSON text at the time. A load compiles every tool's schema to check it; `createController` given
 * the loaded bundle (whose schemas are those very objects, frozen) then finds them here instead of compiling
 * them all again, which doubled a YAML start-up. The JSON text is compared on every use, so a schema changed
 * after it was compiled is compiled again. A weak map: an entry lives exactly as long as its schema object.
 */
const compiledBySchema = new WeakMap<object, { readonly json: string; readonly result: CompiledSchema }>();

/** A schema's JSON text, or `undefined` when it has none (a cycle, a BigInt): such a schema is never cached. */
function jsonText(schema: JsonSchema): string | undefined {
  try {
    return JSON.stringify(schema);
  } catch {
    return undefined;
  }
}

/** A pair of ajv instances (one per supported draft), reused across many schemas. */
export class ValidatorFactory {
  readonly #extra: Options;
  // Built on first use: creating an ajv instance compiles its meta-schemas, which costs tens of milliseconds.
  #ajv2020: Ajv2020 | undefined;
  #ajv07: Ajv | undefined;
  // What compiled with the default options, by the schema's JSON text: a schema written out again for another
  // tool (the same JSON) gets the same validator without a second compile. Dropped with the instances.
  #byText = new Map<string, CompiledSchema>();

  constructor(extra: Options = {}) {
    this.#extra = extra;
  }

  /** The ajv instance for a draft. */
  ajvFor(draft: SchemaDraft): Ajv {
    if (draft === "2020-12") {
      if (this.#ajv2020 === undefined) {
        this.#ajv2020 = new Ajv2020(this.#options());
        if (this.#compilesAsDefault()) usePrecompiledMetaSchema(this.#ajv2020);
      }
      return this.#ajv2020;
    }
    this.#ajv07 ??= new Ajv(this.#options());
    return this.#ajv07;
  }

  /** Whether this factory's validators are the default ones: no options but `code.source`, which keeps their text. */
  #compilesAsDefault(): boolean {
    const { code, ...rest } = this.#extra;
    return Object.keys(rest).length === 0 && Object.keys(code ?? {}).every((key) => key === "source");
  }

  /** Whether this factory's options only shape ajv's generated code (`code.source`, `esm`, `optimize`). */
  #decidesAsDefault(): boolean {
    const { code, ...rest } = this.#extra;
    return (
      Object.keys(rest).length === 0 &&
      Object.keys(code ?? {}).every((key) => key === "source" || key === "esm" || key === "optimize")
    );
  }

  /**
   * `ajvOptions()` without ajv's optimisation pass, which takes about a quarter of the time of compiling a
   * schema (and compiling is a large part of loading a few hundred tools). The pass only tidies the generated
   * code (unused names, constant conditions): what a validator accepts and the errors it reports are the same.
   * `toolgate compile` keeps the pass, so the modules it writes do not change.
   */
  #options(): Options {
    const base = ajvOptions();
    // `code` options given to the factory join the defaults (a `{ code: { source: true } }` keeps the pattern
    // engine); any other option replaces its default.
    return {
      ...base,
      ...this.#extra,
      code: { ...base.code, optimize: false, ...this.#extra.code },
    };
  }

  /**
   * Forgets every compiled schema, so that one factory can serve many loads without growing: the ajv
   * instances are dropped, not emptied, because ajv keeps every compiled function in its code scope even
   * after `removeSchema()` (a watcher reloading 10,000 tools kept ~60 MB more per reload). Validators already
   * returned keep working; the next compile builds fresh instances (their meta-schemas, ~20 ms, once a load).
   */
  reset(): void {
    this.#ajv2020 = undefined;
    this.#ajv07 = undefined;
    this.#byText = new Map();
  }

  /**
   * Compiles one input schema; a schema object compiled before with the default options, and unchanged
   * since, gives the same validator again.
   * @returns the validator, or a message saying why ajv refused the schema.
   */
  compile(schema: JsonSchema): CompiledSchema {
    // Only the default options are shared: a factory with other options compiles other validators.
    const shared = Object.keys(this.#extra).length === 0;
    const json = typeof schema === "object" && schema !== null ? jsonText(schema) : undefined;
    if (json !== undefined) {
      const cached = shared ? compiledBySchema.get(schema) : undefined;
      if (cached !== undefined && cached.json === json) return cached.result;
      // A validator depends on nothing but the schema's JSON (the draft is its $schema, ajv registers no $id),
      // so an equal schema of another tool accepts and reports exactly what this one's would. (`toolgate
      // compile` writes such a schema's validator once, and compiles it once: see standaloneGroup.)
      const same = this.#byText.get(json);
      if (same !== undefined) {
        if (shared) compiledBySchema.set(schema, { json, result: same });
        return same;
      }
    }
    const result = this.#compile(schema);
    // Only a schema that compiled: a refused one is compiled again for its message, as before.
    if (json !== undefined && result.ok) {
      if (shared) compiledBySchema.set(schema, { json, result });
      this.#byText.set(json, result);
    }
    return result;
  }

  #compile(schema: JsonSchema): CompiledSchema {
    const draft = schemaDraft(schema);
    if (typeof draft === "object") {
      return {
        ok: false,
        message: `unsupported $schema "${draft.unsupported}"; use draft 2020-12 or draft-07`,
      };
    }
    const proto = protoDeclaration(schema, "");
    if (proto !== undefined) {
      return {
        ok: false,
        message: `${PROTO_MESSAGE} at "#${proto}"; rename the property`,
      };
    }
    // A schema in the plan's subset is validated by closures, as ajv would validate it, without paying for
    // ajv's code generation; anything else compiles with ajv. So does every schema of a factory whose options
    // change what its validators decide; options of the generated code alone (`code`: source, esm, optimize,
    // as `compileFactory` gives) do not, and `toolgate compile` writes no ajv code for a planned schema.
    if (this.#decidesAsDefault()) {
      const planned = planValidator(schema);
      if (planned !== undefined) return { ok: true, validator: planned };
    }
    try {
      const ajv = this.ajvFor(draft);
      const validate = withJsonEqual(() => ajv.compile(schema)) as unknown as AjvValidateFunction;
      return { ok: true, validator: fromAjvValidator(validate), validate };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  }
}

/** The start of the message for a schema that declares a property named `__proto__`. */
export const PROTO_MESSAGE = 'a property named "__proto__" is never validated (ajv skips it)';

/**
 * The JSON pointer of the first `properties` map (or `required` list) that names `__proto__`, if any: ajv
 * leaves such a property out of validation without a word, so toolgate refuses the schema.
 */
function protoDeclaration(node: unknown, pointer: string): string | undefined {
  if (node === null || typeof node !== "object") return undefined;
  for (const [key, value] of Object.entries(node)) {
    const at = `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (
      (key === "properties" || key === "patternProperties" || key === "dependentSchemas") &&
      value !== null &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      Object.hasOwn(value, "__proto__")
    ) {
      return `${at}/__proto__`;
    }
    if (
      (key === "required" || key === "dependentRequired") &&
      Array.isArray(value) &&
      value.includes("__proto__")
    ) {
      return at;
    }
    const inner = protoDeclaration(value, at);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

let shared: ValidatorFactory | undefined;

/**
 * A factory shared by every load in this process, reset after each use (so that nothing a finished load
 * compiled stays reachable from it); within one load, every schema shares its two ajv instances.
 */
export function sharedValidatorFactory(): ValidatorFactory {
  shared ??= new ValidatorFactory();
  return shared;
}

/**
 * Compiles an input schema into an `ArgumentValidator`.
 * @throws TypeError with ajv's message when the schema is invalid.
 */
export function compileArgumentValidator(schema: JsonSchema): ArgumentValidator {
  const result = sharedValidatorFactory().compile(schema);
  if (!result.ok) throw new ToolgateError("invalid-input-schema", `invalid input schema: ${result.message}`);
  return result.validator;
}
