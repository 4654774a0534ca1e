/**
 * The longer text of each diagnostic code, for SARIF rules (`fullDescription`, `help`, `helpUri`) and the
 * reference: what the code means, and what to do about it. docs/policy-reference.md section 14 shows the
 * same table; a test keeps the two equal.
 */
import type { DiagnosticCode } from "./diagnostic.js";

/** What a code means and what to do. */
export interface RuleHelp {
  readonly meaning: string;
  readonly fix: string;
}

/** Where the reference lives; each code has an anchor `diagnostic-<code>` in its table. */
export const REFERENCE_URL = "https://toolgate.dev/docs/policy-reference.md";

/** The reference anchor of a code. */
export function helpUri(code: DiagnosticCode): string {
  return `${REFERENCE_URL}#diagnostic-${code}`;
}

/** Meaning and fix of every code. */
export const RULE_HELP: Readonly<Record<DiagnosticCode, RuleHelp>> = {
  "yaml-syntax": {
    meaning: "The file is not well-formed YAML, uses a custom tag, or holds more than one document.",
    fix: "Fix the syntax at the reported position; remove the tag; keep one document per file.",
  },
  "duplicate-key": {
    meaning: "A mapping repeats a key.",
    fix: "Remove or rename one of them.",
  },
  "yaml-alias": {
    meaning: "An anchor (`&x`) or alias (`*x`) is used.",
    fix: "Write each value out.",
  },
  "file-too-large": {
    meaning: "The file is over 1 MiB.",
    fix: "Split it (several tool or test files; `extends` for policy).",
  },
  "file-not-found": {
    meaning: "A file named by the config or by `extends` does not exist, or a glob matches nothing.",
    fix: "Fix the path; paths are relative to the file that names them.",
  },
  "config-not-found": {
    meaning: "No configuration was found, or `--config` names a missing file. The CLI exits 2.",
    fix: "Create `toolgate.config.yaml` or pass `--config`.",
  },
  "invalid-encoding": {
    meaning: "The file is not valid UTF-8.",
    fix: "Save it as UTF-8.",
  },
  "config-schema": {
    meaning:
      "The document does not match its JSON Schema (missing/unknown key, wrong type or value); also: empty file, non-string key, non-finite number, a `reasons` entry for an unlisted tool.",
    fix: "Follow the message; the schemas in `schemas/` say what is allowed.",
  },
  "invalid-tool-name": {
    meaning: "A tool name breaks `^[A-Za-z][A-Za-z0-9_-]{0,63}$` or is reserved.",
    fix: "Rename the tool.",
  },
  "duplicate-tool": {
    meaning: "A tool name is declared twice.",
    fix: "Keep one definition.",
  },
  "invalid-input-schema": {
    meaning:
      "An `input_schema` (or `context_schema`) is not a valid JSON Schema, has an unknown keyword or `format`, or has a `$ref` outside itself.",
    fix: "Fix the keyword; use a supported format or a `pattern`; inline remote schemas under `$defs`.",
  },
  "unknown-tool": {
    meaning: "The policy names a tool no tool file declares.",
    fix: "Fix the spelling or declare the tool.",
  },
  overlap: {
    meaning: "In one policy file a tool is in two of allow/ask/deny, or twice in one.",
    fix: "Keep it in one list.",
  },
  "duplicate-rule-id": {
    meaning: "Two rules share an id (across all layers).",
    fix: "Rename one.",
  },
  "unknown-argument": {
    meaning:
      "A `when` field is not in the tool's `input_schema`; a `context` field is not in `context_schema` (or there is none).",
    fix: "Fix the field path, or declare the field.",
  },
  "operator-type-mismatch": {
    meaning:
      "An operator does not fit the field's declared type, or an `equals`/`in` value can never be equal.",
    fix: "Use an operator for that type, or fix the value.",
  },
  "invalid-regex": {
    meaning:
      "A regex is invalid or needs backtracking (lookaround, backreferences) or is too large, or has an unsupported flag.",
    fix: "Rewrite it for the linear-time engine; use only the flags `i`, `m`, `s`.",
  },
  "invalid-glob": {
    meaning:
      "A glob (in a rule, or in the config's `tools`/`tests`) is malformed or can never match a normalised path.",
    fix: "Fix the glob (no `//`, `./`, trailing `/`).",
  },
  "invalid-command": {
    meaning:
      "A `command` prefix is not a plain list of literal words, or its `{ prefix, options }` form is wrong.",
    fix: "Write plain words such as `git status`; list options as single words such as `--oneline`; drop the `$` of a prefix that lists options.",
  },
  "unknown-rule": {
    meaning: "A policy test's `rule:` names no statement id.",
    fix: "Use an id from section 10 (`explain` shows them).",
  },
  "extends-cycle": {
    meaning: "Policy files extend each other in a cycle.",
    fix: "Remove one link.",
  },
  "missing-handler": {
    meaning:
      "A declared tool has no handler. Raised by `createController` in the application, not by `lint`.",
    fix: "Register a handler for the tool.",
  },
  "unknown-handler": {
    meaning:
      "A handler is registered for a tool no tool file declares. Raised by `createController`, not by `lint`.",
    fix: "Remove the handler or declare the tool.",
  },
  "reload-refused": {
    meaning:
      "A reload (`watchPolicy`, `reloadController`) cannot apply the new configuration as a whole: it moves the approval store or audit sink the controller took from the config, or a schema does not compile. Raised in the application, not by `lint`; the old configuration stays in force.",
    fix: "Restore the setting, or restart the application to switch stores.",
  },
  "identifier-collision": {
    meaning: "Two tool names give the same TypeScript name.",
    fix: "Rename one.",
  },
  "unlisted-tool": {
    meaning: "A declared tool has no policy statement, so it is always denied.",
    fix: "Add it to allow, ask or deny (deny is fine: it says you meant it).",
  },
  "unreachable-rule": {
    meaning:
      "A rule can never change a decision because set entries for all its tools are at least as strict; or an `otherwise` entry never applies because a set entry or an unconditional rule matches every call of its tool.",
    fix: 'Remove the rule or loosen the set entry \u2014 for "allow these, ask for the rest", replace the `ask` entry with `otherwise: { TOOL: ask }`.',
  },
  "prefix-on-path": {
    meaning: "A `prefix` (plain text) is applied to a field that holds a path, or its text reads as a path.",
    fix: 'Use `path_prefix` (or `glob`); for plain text on purpose, `regex: "^\u2026"`.',
  },
  "invalid-url": {
    meaning: "A `url` operator names a scheme, host, port or path glob that no URL can have.",
    fix: "Follow the message: schemes without `:`, hosts without scheme or path, path globs starting with `/`.",
  },
  "unbounded-string": {
    meaning:
      "A `command`, `glob`, `path_prefix` or `regex` operator reads a string field (an argument, an array's items, or a `context_schema` fact) whose schema sets no `maxLength`, `enum` or `const`. Reported once per field of a rule and tool, at the first such operator.",
    fix: "Add `maxLength` to the field in the `input_schema` (for example `maxLength: 4096`; a command line or a URL rarely needs more).",
  },
  "test-failed": {
    meaning: "A policy test did not get the expected decision or rule.",
    fix: "Fix the policy or the test.",
  },
  "codegen-stale": {
    meaning:
      "A generated file differs from what `toolgate codegen` or `toolgate compile` would write (`--check`); the message says which declarations changed, or that the policy did.",
    fix: "Run `toolgate codegen` (or `compile`) and commit the result.",
  },
};
