/**
 * The one table of diagnostic codes: for each code its default severity, its one-sentence description (the
 * SARIF rule's `shortDescription`), what it means and what to do (`fullDescription`, `help`, and the table in
 * docs/policy-reference.md section 14, which a test keeps equal). `DiagnosticCode` is derived from it, the SARIF
 * formatter reads it, and every check carries its row as its `meta`. Codes are stable: extend, never rename.
 */

/** What a diagnostic code is: the metadata a check carries (as an ESLint rule carries `meta`). */
export interface DiagnosticMeta {
  readonly code: string;
  /** The severity it is reported with unless a stage or the `severity` setting says otherwise. */
  readonly severity: "error" | "warning";
  /** One sentence: the SARIF rule's `shortDescription`. */
  readonly description: string;
  /** What it means (the reference's table and SARIF `fullDescription`). */
  readonly meaning: string;
  /** What to do about it. */
  readonly fix: string;
}

/** Every diagnostic code with its metadata, in code order. */
export const DIAGNOSTICS = Object.freeze([
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
    code: "unknown-tool",
    severity: "error",
    description: "The policy names a tool that no tool spec declares.",
    meaning: "The policy names a tool no tool file declares.",
    fix: "Fix the spelling or declare the tool.",
  },
  {
    code: "overlap",
    severity: "error",
    description: "A tool is listed in more than one of allow, ask and deny in one policy file.",
    meaning: "In one policy file a tool is in two of allow/ask/deny, or twice in one.",
    fix: "Keep it in one list.",
  },
  {
    code: "duplicate-rule-id",
    severity: "error",
    description: "Two rules have the same id.",
    meaning: "Two rules share an id (across all layers).",
    fix: "Rename one.",
  },
  {
    code: "unknown-argument",
    severity: "error",
    description: "A rule condition names an argument that the tool's input_schema does not define.",
    meaning:
      "A `when` field is not in the tool's `input_schema`; a `context` field is not in `context_schema` (or there is none).",
    fix: "Fix the field path, or declare the field.",
  },
  {
    code: "operator-type-mismatch",
    severity: "error",
    description: "A rule operator does not fit the type of the argument it is applied to.",
    meaning:
      "An operator does not fit the field's declared type, or an `equals`/`in` value can never be equal.",
    fix: "Use an operator for that type, or fix the value.",
  },
  {
    code: "invalid-regex",
    severity: "error",
    description: "A regular expression is invalid or cannot be matched in linear time.",
    meaning:
      "A regex is invalid or needs backtracking (lookaround, backreferences) or is too large, or has an unsupported flag.",
    fix: "Rewrite it for the linear-time engine; use only the flags `i`, `m`, `s`.",
  },
  {
    code: "invalid-glob",
    severity: "error",
    description: "A glob pattern is invalid.",
    meaning:
      "A glob (in a rule, or in the config's `tools`/`tests`) is malformed or can never match a normalised path.",
    fix: "Fix the glob (no `//`, `./`, trailing `/`).",
  },
  {
    code: "invalid-command",
    severity: "error",
    description: "A command prefix is not a plain list of shell words.",
    meaning:
      "A `command` prefix is not a plain list of literal words, or its `{ prefix, options }` form is wrong.",
    fix: "Write plain words such as `git status`; list options as single words such as `--oneline`; drop the `$` of a prefix that lists options.",
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
    code: "unlisted-tool",
    severity: "warning",
    description: "A declared tool has no policy statement, so it is always denied.",
    meaning: "A declared tool has no policy statement, so it is always denied.",
    fix: "Add it to allow, ask or deny (deny is fine: it says you meant it).",
  },
  {
    code: "unreachable-rule",
    severity: "warning",
    description: "A rule can never decide a call because other statements always take precedence.",
    meaning:
      "A rule can never change a decision because set entries for all its tools are at least as strict; or an `otherwise` entry never applies because a set entry or an unconditional rule matches every call of its tool.",
    fix: 'Remove the rule or loosen the set entry — for "allow these, ask for the rest", replace the `ask` entry with `otherwise: { TOOL: ask }`.',
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
    code: "prefix-on-path",
    severity: "warning",
    description:
      "A plain string prefix is applied to a path, where path_prefix (which normalises the path) was likely meant.",
    meaning: "A `prefix` (plain text) is applied to a field that holds a path, or its text reads as a path.",
    fix: 'Use `path_prefix` (or `glob`); for plain text on purpose, `regex: "^…"`.',
  },
  {
    code: "invalid-url",
    severity: "error",
    description: "A url operator names a scheme, host, port or path pattern that no URL can have.",
    meaning: "A `url` operator names a scheme, host, port or path glob that no URL can have.",
    fix: "Follow the message: schemes without `:`, hosts without scheme or path, path globs starting with `/`.",
  },
  {
    code: "unbounded-string",
    severity: "warning",
    description:
      "A command, glob, path_prefix or regex rule reads a string field whose schema sets no maxLength.",
    meaning:
      "A `command`, `glob`, `path_prefix` or `regex` operator reads a string field (an argument, an array's items, or a `context_schema` fact) whose schema sets no `maxLength`, `enum` or `const`. Reported once per field of a rule and tool, at the first such operator.",
    fix: "Add `maxLength` to the field in the `input_schema` (for example `maxLength: 4096`; a command line or a URL rarely needs more).",
  },
] as const satisfies readonly DiagnosticMeta[]);

/** One of the stable diagnostic codes. */
export type DiagnosticCode = (typeof DIAGNOSTICS)[number]["code"];

const BY_CODE: ReadonlyMap<string, DiagnosticMeta> = new Map(DIAGNOSTICS.map((d) => [d.code, d]));

/** The metadata of a code. */
export function diagnosticMeta(code: DiagnosticCode): DiagnosticMeta {
  return BY_CODE.get(code) as DiagnosticMeta;
}
