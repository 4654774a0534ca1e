/**
 * The import-time check of a module written by `toolgate compile`. Everything the module executes besides
 * its few lines of wiring lives in two functions: one returns the policy data (tool specs, statements, the
 * context schema, the canonical fingerprinted text, the settings), each piece read with `JSON.parse`; the
 * other holds the validators (ajv standalone code, or `"plan"` for a schema `planValidator` builds at import
 * from the data). `toolgate compile` writes the SHA-256 of each function's source text next to them. At import, before either runs, the source text of each (as the engine keeps it,
 * `Function.prototype.toString`) is hashed again and must match; then the data must be what the fingerprint
 * hashes (`verifyCompiledPolicy`). An edit to any of it — a rule, an enum value of a spec, a character of a
 * validator, a redaction, a limit — makes the import fail with a `ToolgateError` (`fingerprint-mismatch`)
 * that names what does not match.
 */
import { createHash } from "node:crypto";
import { AjvValidationError, ajvEqual, ajvFormat, ajvUcs2length } from "./ajv-runtime.js";
import { type AjvValidateFunction, fromAjvValidator, schemaPattern } from "./ajv-validator.js";
import type { ControllerParts } from "./assemble.js";
import { ToolgateError } from "./errors.js";
import { verifyCompiledPolicy } from "./fingerprint.js";
import { deepFreeze } from "./handlers.js";
import { type ControllerMode, DEFAULT_MODE, isControllerMode } from "./mode.js";
import type { StatementSpec } from "./policy.js";
import { PLANNED_VALIDATOR, planValidator } from "./schema-plan.js";
import type { ToolAlias } from "./tool-aliases.js";
import type { ArgumentValidator, JsonSchema, ToolSpec } from "./types.js";

const functionText = Function.prototype.toString;

/**
 * The integrity hash of a piece of generated source text: `sha256:` and the hex SHA-256 of the text with
 * every `;` and carriage return outside string literals and comments left out. Those two are what a loader
 * may add without changing the code: a `\r\n` checkout, and the semicolons a module transform (vite's SSR
 * transform, which vitest applies) appends after statements. Every other character counts, and string
 * literals and comments count whole.
 */
export function sourceIntegrity(text: string): string {
  // One regular expression scan (it runs when a compiled module is imported, so on every hook start): at each
  // position a string literal ("…" or '…', escapes included, to the end when unclosed) or a block comment (to
  // the end when unclosed) is kept whole, and a `;` or carriage return outside them is left out.
  const kept = text.replace(INTEGRITY_TOKENS, (token) => (token === ";" || token === "\r" ? "" : token));
  return `sha256:${createHash("sha256").update(kept).digest("hex")}`;
}

/** What `sourceIntegrity` reads: string literals, block comments, and the two characters it leaves out. */
const INTEGRITY_TOKENS = /"(?:[^"\\]+|\\[\s\S]?)*"?|'(?:[^'\\]+|\\[\s\S]?)*'?|\/\*[\s\S]*?(?:\*\/|$)|[;\r]/g;

/** The helpers ajv standalone code calls, handed to the module's validators function as its one argument. */
export interface CompiledValidatorHelpers {
  readonly ajvEqual: typeof ajvEqual;
  readonly ajvUcs2length: typeof ajvUcs2length;
  readonly AjvValidationError: typeof AjvValidationError;
  readonly ajvFormat: typeof ajvFormat;
  readonly schemaPattern: typeof schemaPattern;
}

const HELPERS: CompiledValidatorHelpers = Object.freeze({
  ajvEqual,
  ajvUcs2length,
  AjvValidationError,
  ajvFormat,
  schemaPattern,
});

/** What the module's data function returns. */
export interface CompiledModuleData {
  readonly typesFingerprint: string;
  readonly specs: readonly ToolSpec[];
  readonly statements: readonly StatementSpec[];
  readonly contextSchema: unknown;
  /** The tool aliases of the tool files (absent in a module compiled before aliases existed: none). */
  readonly aliases?: readonly ToolAlias[];
  /** The canonical JSON of the fingerprinted data (see `verifyCompiledPolicy`). */
  readonly canonical: string;
  readonly settings: {
    /** The audit redaction, as `[tool, "all" | fields]` entries. */
    readonly redact: readonly (readonly [string, "all" | readonly string[]])[];
    readonly approvalTtlMs?: number;
    readonly grantMaxMs?: number;
  };
}

/**
 * What the module's validators function returns: each tool's validate function, in the specs' order, or
 * `"plan"` for a schema the runtime validates without ajv code (`planValidator`, built from the schema in the
 * module's data).
 */
export interface CompiledModuleValidators {
  readonly tools: readonly (readonly [string, AjvValidateFunction | typeof PLANNED_VALIDATOR])[];
  readonly context?: AjvValidateFunction | typeof PLANNED_VALIDATOR;
}

/** What a compiled module hands to `verifyCompiledModule`. */
export interface CompiledModuleSource {
  /** The module's exported constants. */
  readonly fingerprint: string;
  readonly typesFingerprint: string;
  readonly mode: unknown;
  /** The function that returns the policy data. */
  readonly data: () => CompiledModuleData;
  /** The function that builds the validators. */
  readonly validators: (helpers: CompiledValidatorHelpers) => CompiledModuleValidators;
  /** The integrity hashes `toolgate compile` wrote for the two functions' source text. */
  readonly integrity: { readonly data: string; readonly validators: string };
}

/** A compiled module's verified data and controller parts (all but its `ToolPolicy`). */
export interface VerifiedCompiledModule {
  /** The tools' specs and the statements (deeply frozen). */
  readonly specs: readonly ToolSpec[];
  readonly statements: readonly StatementSpec[];
  /** The tool aliases, checked against the fingerprint (deeply frozen). */
  readonly aliases: readonly ToolAlias[];
  /** Everything `assembleController` takes from the policy except the `ToolPolicy`, which the module builds. */
  readonly parts: Omit<ControllerParts, "policy">;
}

function mismatch(what: string, detail: string): ToolgateError {
  return new ToolgateError(
    "fingerprint-mismatch",
    `this compiled controller's ${what} ${detail}: the module was edited after toolgate compile wrote it; re-run \`toolgate compile\` to write it again from the policy`,
  );
}

function checkIntegrity(fn: unknown, expected: unknown, what: string): void {
  if (typeof fn !== "function") throw mismatch(what, "are missing");
  const found = sourceIntegrity(functionText.call(fn));
  if (typeof expected !== "string" || found !== expected) {
    throw mismatch(
      what,
      `do not match the integrity hash written for them (${JSON.stringify(expected)}; the code hashes to ${found})`,
    );
  }
}

/**
 * Checks a compiled module when it is imported: the source text of its data and validators functions
 * against the integrity hashes written at compile time, then its data against its fingerprint
 * (`verifyCompiledPolicy`), and its exported constants against that data; then builds the controller parts.
 * @throws ToolgateError (`fingerprint-mismatch`) naming what does not match, when the module was edited
 *   after it was compiled.
 */
export function verifyCompiledModule(source: CompiledModuleSource): VerifiedCompiledModule {
  checkIntegrity(
    source.data,
    source.integrity?.data,
    "policy data (tool specs, statements, context schema, aliases, settings)",
  );
  checkIntegrity(source.validators, source.integrity?.validators, "validators (the ajv standalone code)");
  const data = source.data();
  if (data.typesFingerprint !== source.typesFingerprint) {
    throw mismatch("exported typesFingerprint", "does not match its data");
  }
  const mode = source.mode ?? DEFAULT_MODE;
  const aliases = data.aliases ?? [];
  const canonical = verifyCompiledPolicy({
    canonical: data.canonical,
    fingerprint: source.fingerprint,
    tools: data.specs,
    statements: data.statements,
    contextSchema: data.contextSchema,
    mode,
    aliases,
  });
  // verifyCompiledPolicy has checked the mode against the fingerprinted data.
  if (!isControllerMode(mode)) throw mismatch("mode", "is not an enforcement mode");
  const settings = data.settings;
  deepFreeze(settings);
  const validators = source.validators(HELPERS);
  const tools = validators.tools;
  if (
    !Array.isArray(tools) ||
    tools.length !== data.specs.length ||
    tools.some(
      ([name, validate], index) =>
        name !== data.specs[index]?.name ||
        (typeof validate !== "function" && validate !== PLANNED_VALIDATOR),
    ) ||
    (data.contextSchema === null) !== (validators.context === undefined)
  ) {
    throw mismatch("validators", "do not match its tools");
  }
  const parts: Omit<ControllerParts, "policy"> = {
    specs: data.specs,
    validators: new Map(
      tools.map(([name, validate], index) => [
        name,
        validatorOf(validate, (data.specs[index] as ToolSpec).inputSchema, `tool "${name}"`),
      ]),
    ),
    statements: data.statements,
    mode: mode as ControllerMode,
    fingerprint: source.fingerprint,
    canonical: () => canonical,
    redact: new Map(settings.redact),
    ...(validators.context === undefined
      ? {}
      : {
          contextValidator: validatorOf(
            validators.context,
            data.contextSchema as JsonSchema,
            "context_schema",
          ),
        }),
    ...(settings.approvalTtlMs === undefined ? {} : { approvalTtlMs: settings.approvalTtlMs }),
    ...(settings.grantMaxMs === undefined ? {} : { grantMaxMs: settings.grantMaxMs }),
  };
  return { specs: data.specs, statements: data.statements, aliases, parts };
}

/**
 * The validator of one schema of a compiled module: ajv's standalone function wrapped, or, for a schema the
 * module left to the plan, `planValidator` over the schema in the (verified) data. A schema this runtime's
 * plan declines is refused, never let through unvalidated.
 */
function validatorOf(
  validate: AjvValidateFunction | typeof PLANNED_VALIDATOR,
  schema: JsonSchema,
  what: string,
): ArgumentValidator {
  if (validate !== PLANNED_VALIDATOR) return fromAjvValidator(validate);
  const planned = planValidator(schema);
  if (planned === undefined) {
    throw new ToolgateError(
      "fingerprint-mismatch",
      `this compiled controller's validator of ${what} is not one this version of toolgate can build; re-run \`toolgate compile\``,
    );
  }
  return planned;
}
