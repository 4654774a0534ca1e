/**
 * The metadata of a diagnostic code, and the rows of the codes the stages report themselves (parsing, schema
 * validation, tool checks, test files, `extends`, the controller's set-up, codegen, policy tests). Each policy
 * check declares its own code's row as its `meta` (as an ESLint rule carries `meta`); the whole table, which
 * the SARIF formatter is handed and docs/policy-reference.md section 14 shows (a test keeps the two equal), is
 * composed from both above this module (`src/config/diagnostic-codes.ts`). Codes are stable: extend, never
 * rename.
 */

/** What a diagnostic code is: its row of the table. */
export interface DiagnosticMeta<Code extends string = string> {
  readonly code: Code;
  /** The severity it is reported with unless a stage or the `severity` setting says otherwise. */
  readonly severity: "error" | "warning";
  /** One sentence: the SARIF rule's `shortDescription`. */
  readonly description: string;
  /** What it means (the reference's table and SARIF `fullDescription`). */
  readonly meaning: string;
  /** What to do about it. */
  readonly fix: string;
}

/** The codes the stages report themselves, with their metadata, in code order. */
export const STAGE_DIAGNOSTICS = Object.freeze([
  {
    code: "yaml-syntax",
    severity: "error",
    description: "The file is not well-formed YAML.",
    meaning: "The file is not well-formed YAML, uses a custom tag, or holds more than one document.",
    fix: "Fix the syntax at the reported position; remove the tag; keep one document per file.",
  },
  {
    code: "duplicate-key",
    severity: "error",
    description: "A YAML mapping repeats a key.",
    meaning: "A mapping repeats a key.",
    fix: "Remove or rename one of them.",
  },
  {
    code: "yaml-alias",
    severity: "error",
    description: "The file uses a YAML anchor or alias, which policy files do not allow.",
    meaning: "An anchor (`&x`) or alias (`*x`) is used.",
    fix: "Write each value out.",
  },
  {
    code: "file-too-large",
    severity: "error",
    description: "The file is larger than the size limit for policy files.",
    meaning: "The file is over 1 MiB.",
    fix: "Split it (several tool or test files; `extends` for policy).",
  },
  {
    code: "file-not-found",
    severity: "error",
    description: "A file named by the configuration or a policy does not exist.",
    meaning: "A file named by the config or by `extends` does not exist, or a glob matches nothing.",
    fix: "Fix the path; paths are relative to the file that names them.",
  },
  {
    code: "config-not-found",
    severity: "error",
    description: "No toolgate configuration file was found.",
    meaning: "No configuration was found, or `--config` names a missing file. The CLI exits 2.",
    fix: "Create `toolgate.config.yaml` or pass `--config`.",
  },
  {
    code: "invalid-encoding",
    severity: "error",
    description: "The file is not valid UTF-8 text.",
    meaning: "The file is not valid UTF-8.",
    fix: "Save it as UTF-8.",
  },
  {
    code: "config-schema",
    severity: "error",
    description: "The document does not match the JSON Schema for its file kind.",
    meaning:
      "The document does not match its JSON Schema (missing/unknown key, wrong type or value); also: empty file, non-string key, non-finite number, a `reasons` entry for an unlisted tool.",
    fix: "Follow the message; the schemas in `schemas/` say what is allowed.",
  },
  {
    code: "invalid-tool-name",
    severity: "error",
    description: "A tool name is not a valid tool name.",
    meaning: "A tool name breaks `^[A-Za-z][A-Za-z0-9_-]{0,63}$` or is reserved.",
    fix: "Rename the tool.",
  },
  {
    code: "duplicate-tool",
    severity: "error",
    description: "The same tool name is declared more than once.",
    meaning: "A tool name is declared twice.",
    fix: "Keep one definition.",
  },
  {
    code: "invalid-input-schema",
    severity: "error",
    description: "A tool's input_schema is not a valid JSON Schema for an object.",
    meaning:
      "An `input_schema` (or `context_schema`) is not a valid JSON Schema, has an unknown keyword or `format`, or has a `$ref` outside itself.",
    fix: "Fix the keyword; use a supported format or a `pattern`; inline remote schemas under `$defs`.",
  },
  {
    code: "unknown-rule",
    severity: "error",
    description: "A policy test names a rule id that the policy does not have.",
    meaning: "A policy test's `rule:` names no statement id.",
    fix: "Use an id from section 10 (`explain` shows them).",
  },
  {
    code: "extends-cycle",
    severity: "error",
    description: "Policy files extend each other in a cycle.",
    meaning: "Policy files extend each other in a cycle.",
    fix: "Remove one link.",
  },
  {
    code: "missing-handler",
    severity: "error",
    description: "A declared tool has no handler.",
    meaning:
      "A declared tool has no handler. Raised by `createController` in the application, not by `lint`.",
    fix: "Register a handler for the tool.",
  },
  {
    code: "unknown-handler",
    severity: "error",
    description: "A handler is registered for a tool that no tool spec declares.",
    meaning:
      "A handler is registered for a tool no tool file declares. Raised by `createController`, not by `lint`.",
    fix: "Remove the handler or declare the tool.",
  },
  {
    code: "reload-refused",
    severity: "error",
    description: "A running controller cannot take a new configuration as it is; the old one stays in force.",
    meaning:
      "A reload (`watchPolicy`, `reloadController`) cannot apply the new configuration as a whole: it moves the approval store or audit sink the controller took from the config, or a schema does not compile. Raised in the application, not by `lint`; the old configuration stays in force.",
    fix: "Restore the setting, or restart the application to switch stores.",
  },
  {
    code: "identifier-collision",
    severity: "error",
    description: "Two tool names give the same TypeScript identifier.",
    meaning: "Two tool names give the same TypeScript name.",
    fix: "Rename one.",
  },
  {
    code: "test-failed",
    severity: "error",
    description: "A policy test did not get the expected decision.",
    meaning: "A policy test did not get the expected decision or rule.",
    fix: "Fix the policy or the test.",
  },
  {
    code: "codegen-stale",
    severity: "error",
    description: "Generated code is out of date with the policy and tool specs.",
    meaning:
      "A generated file differs from what `toolgate codegen` or `toolgate compile` would write (`--check`); the message says which declarations changed, or that the policy did.",
    fix: "Run `toolgate codegen` (or `compile`) and commit the result.",
  },
  {
    code: "alias-unknown-tool",
    severity: "error",
    description: "A tool alias names a canonical tool that no tool spec declares.",
    meaning: "An `aliases` entry's `tool` is not declared in any tool file.",
    fix: "Fix the spelling, or declare the canonical tool in a tool file.",
  },
  {
    code: "alias-unknown-host",
    severity: "error",
    description: "A tool alias names a host toolgate does not read through aliases.",
    meaning:
      "An `aliases` entry's `host` is not one of `claude-code`, `gemini-cli`, `codex`, `cursor`, `opencode`.",
    fix: "Use one of those host names.",
  },
  {
    code: "alias-duplicate",
    severity: "error",
    description: "Two tool aliases have the same host and name.",
    meaning:
      "The same `host` and `name` are aliased twice (in one tool file or across them); only one could apply.",
    fix: "Keep one of them.",
  },
  {
    code: "alias-unknown-argument",
    severity: "error",
    description: "A tool alias maps an argument that the canonical tool's input_schema does not declare.",
    meaning:
      "A key of an alias's `arguments` is not declared under `properties` of the canonical tool's `input_schema`.",
    fix: "Fix the argument name, or declare the argument in the canonical tool's input_schema.",
  },
  {
    code: "alias-bad-mapping",
    severity: "error",
    description:
      "A tool alias's name pattern is malformed, or a mapping reads a part the pattern does not have.",
    meaning:
      "The `name` has a `{` or `}` that is not a `{part}`, names a part twice, or has two parts with no text between them; or a `name_part` names no `{part}` of the `name`.",
    fix: "Write parts as `{letters_digits_and_underscores}` separated by literal text; use a part the name has.",
  },
] as const satisfies readonly DiagnosticMeta[]);

/** A code a stage reports itself (not one that a policy check declares). */
export type StageDiagnosticCode = (typeof STAGE_DIAGNOSTICS)[number]["code"];

/** The row of a code a stage reports. */
export function stageDiagnosticMeta<Code extends StageDiagnosticCode>(
  code: Code,
): Extract<(typeof STAGE_DIAGNOSTICS)[number], { code: Code }> {
  return STAGE_DIAGNOSTICS.find((d) => d.code === code) as Extract<
    (typeof STAGE_DIAGNOSTICS)[number],
    { code: Code }
  >;
}
