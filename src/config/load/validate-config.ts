/**
 * Validation for the policy load beyond each file's JSON Schema: the config as its schema checked it
 * (`RawConfig`), the checks of its keys that a schema cannot say (notifier secrets, roots, the context
 * schema), and the tools' input schemas compiled in slices before `checkTools` checks them.
 */
import type { ControllerMode } from "../../runtime/mode.js";
import type { JsonSchema } from "../../runtime/types.js";
import { schemaDraft, type ValidatorFactory } from "../../validation/argument-validator.js";
import { locateSchemaProblem, toolNameProblem } from "../check-tools.js";
import type { Diagnostic } from "../diagnostic-codes.js";
import { diagnosticAt, type ParsedFile } from "../parse-yaml.js";
import type { SeveritySetting } from "../severity-settings.js";
import { type LoadSteps, PAUSE } from "./read-protocol.js";

/** The config file's data, as its schema has checked it. */
export interface RawConfig {
  readonly tools: readonly string[];
  readonly policy: string;
  readonly tests?: readonly string[];
  /** Property files for `toolgate verify` (paths or globs relative to the config file). */
  readonly properties?: readonly string[];
  readonly context_schema?: JsonSchema;
  readonly codegen?: { readonly out: string };
  readonly compile?: { readonly out: string };
  readonly approvals?: string;
  readonly grants?: { readonly max_hours?: number; readonly session_key?: string };
  readonly severity?: { readonly [code: string]: SeveritySetting };
  readonly audit?: {
    readonly sink: string;
    readonly redact?: { readonly [tool: string]: "all" | readonly string[] };
    readonly otel?: boolean;
  };
  readonly mode?: ControllerMode;
  readonly approval_ttl_ms?: number;
  readonly notify?: readonly RawNotifier[];
  readonly roots?: readonly string[];
}

/** A `notify` entry of the config, as its schema has checked it. */
export type RawNotifier =
  | {
      readonly kind: "webhook";
      readonly url: string;
      readonly secret_env?: string;
      readonly secret_file?: string;
      readonly timeout_ms?: number;
      readonly max_attempts?: number;
    }
  | { readonly kind: "command"; readonly command: readonly string[]; readonly timeout_ms?: number };

/**
 * A webhook's secret comes from one place: with both `secret_env` and `secret_file`, which one signs would be a
 * guess (the schema requires one of them; "not both" gets this message at the second key).
 */
export function checkNotifierSecrets(config: ParsedFile, notify: unknown): Diagnostic[] {
  if (!Array.isArray(notify)) return [];
  return notify.flatMap((entry: unknown, index) =>
    entry !== null &&
    typeof entry === "object" &&
    Object.hasOwn(entry, "secret_env") &&
    Object.hasOwn(entry, "secret_file")
      ? [
          diagnosticAt(
            config,
            `/notify/${index}/secret_file`,
            "config-schema",
            "a webhook takes its secret from secret_env or secret_file, not both; keep one",
            { prefer: "key" },
          ),
        ]
      : [],
  );
}

/**
 * The config's `roots` (the schema has checked they are non-empty strings): a root is a directory named as it
 * is, so a `~` (which no shell expands here), a NUL byte or a Windows path is refused at its own position,
 * saying what to write instead.
 */
export function checkRoots(config: ParsedFile, roots: unknown): Diagnostic[] {
  if (!Array.isArray(roots)) return [];
  const problems: Diagnostic[] = [];
  roots.forEach((root: unknown, index) => {
    if (typeof root !== "string" || root === "") return;
    const why = root.includes("\0")
      ? "holds a NUL byte, which no directory name may hold"
      : root.startsWith("~")
        ? "starts with ~, which is not expanded here; write the absolute path of the directory"
        : /^[A-Za-z]:[\\/]|\\/.test(root)
          ? "is a Windows path (or holds a backslash); roots are POSIX directories, absolute or relative to this file"
          : undefined;
    if (why === undefined) return;
    problems.push(
      diagnosticAt(
        config,
        `/roots/${index}`,
        "config-schema",
        `roots[${index}] ${JSON.stringify(root)} ${why}`,
      ),
    );
  });
  return problems;
}

/**
 * The config's `context_schema`, when it compiles; otherwise `null` and the diagnostic that says where it
 * does not.
 */
export function checkContextSchema(
  config: ParsedFile,
  schema: JsonSchema | undefined,
  factory: ValidatorFactory,
): { readonly contextSchema: JsonSchema | null; readonly diagnostics: Diagnostic[] } {
  if (schema === undefined) return { contextSchema: null, diagnostics: [] };
  const compiled = factory.compile(schema);
  if (compiled.ok) return { contextSchema: schema, diagnostics: [] };
  const problem = locateSchemaProblem(config, "/context_schema", compiled.message);
  return {
    contextSchema: null,
    diagnostics: [
      diagnosticAt(
        config,
        problem.pointer,
        "invalid-input-schema",
        `context_schema is not a valid JSON Schema: ${problem.message}`,
        { prefer: problem.prefer },
      ),
    ],
  };
}

/** The valid tool names a tool file declares, read from data that did not match the schema. */
export function declaredNames(parsed: ParsedFile): string[] {
  const list = (parsed.data as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(list)) return [];
  return list
    .map((tool: unknown) =>
      tool !== null && typeof tool === "object" ? (tool as { name?: unknown }).name : undefined,
    )
    .filter((name): name is string => typeof name === "string" && toolNameProblem(name) === undefined);
}

/**
 * Compiles the tools' input schemas one at a time, pausing between them, so that `checkTools` (which
 * compiles them again, in one go) finds each in ajv's cache (ajv caches compiled schemas by object).
 * Compiling is most of a large load's work. (ajv registers no `$id` of a compiled schema: `addUsedSchema`
 * is off, so compiling a schema here that `checkTools` skips changes nothing it reports.)
 */
export function* compileInSlices(files: readonly ParsedFile[], factory: ValidatorFactory): LoadSteps<void> {
  for (const parsed of files) {
    for (const tool of (parsed.data as { tools?: readonly { input_schema?: unknown }[] }).tools ?? []) {
      const schema = tool.input_schema;
      if (schema === null || typeof schema !== "object") continue;
      const draft = schemaDraft(schema as JsonSchema);
      if (typeof draft === "object") continue;
      // ajv caches a schema before checking it against its meta-schema: a schema that failed here would
      // skip that check in checkTools and get another message. Only good schemas stay cached.
      if (!factory.compile(schema as JsonSchema).ok) factory.ajvFor(draft).removeSchema(schema);
      yield PAUSE;
    }
  }
}
