/**
 * The diagnostics of property files (`toolgate verify`): their codes, each with its row (as the loader's codes
 * have theirs in `DIAGNOSTICS`, which these are not part of: they are verify's own), where docs/verify.md
 * explains each, and the checks of the properties against the loaded bundle — tool names, argument and context
 * fields, and the fit of operators to their fields' types, reusing the policy checks' reading of schemas.
 */
import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { nearest } from "../config/nearest.js";
import { diagnosticAt } from "../config/parse-yaml.js";
import { childPointer, type ParsedFile, positionOf } from "../config/parsed-file.js";
import { operatorTypeCheck } from "../config/policy-checks/operator-type.js";
import type { CheckReport } from "../config/policy-checks/policy-check.js";
import { collectPolicyFacts, type PolicyLayer } from "../config/policy-checks/policy-facts.js";
import { undeclaredFieldMessage } from "../config/policy-checks/unknown-argument.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { DiagnosticMeta } from "../diagnostics/diagnostic-table.js";
import { helpUri } from "../diagnostics/rule-help.js";
import type { ConditionSpec } from "../runtime/condition.js";

/** The codes of problems in property files, with their rows, in the order docs/verify.md lists them. */
export const PROPERTY_DIAGNOSTICS = Object.freeze([
  {
    code: "property-schema",
    severity: "error",
    description: "A property file does not have the shape of a property file.",
    meaning:
      "The file or a property has an unknown key; `version: 1` is missing or another value; `properties:` is not a list; a property has no `id` (or an empty one), neither `tool` nor `tools` or both, not exactly one of `never:` and `always:`, an action other than allow, ask or deny, or a `where:`/`context:` that is not a mapping.",
    fix: "Follow the message; `schemas/properties.schema.json` says what a property file holds.",
  },
  {
    code: "property-duplicate-id",
    severity: "error",
    description: "Two properties have the same id.",
    meaning:
      "A property's `id` is already used by an earlier property, in the same file or in another file verified with it; the message names where.",
    fix: "Give each property its own id.",
  },
  {
    code: "property-unknown-tool",
    severity: "error",
    description: "A property names a tool that the configuration does not declare.",
    meaning: "A name under `tool` or `tools` is not declared in any of the configuration's tool files.",
    fix: "Fix the spelling (the message suggests a near name when there is one), or declare the tool.",
  },
  {
    code: "property-unknown-argument",
    severity: "error",
    description:
      "A property's condition names an argument or context field that the configuration does not declare.",
    meaning:
      "A `where` field (dots for nested properties) is not in the `input_schema` of a tool the property names; a `context` field is not in the configuration's `context_schema`, or there is none. The policy checks its rules' fields the same way (`unknown-argument`).",
    fix: "Fix the field path, or declare the field in the schema.",
  },
  {
    code: "property-operator-type-mismatch",
    severity: "error",
    description: "A property's operator does not fit the type of the field it is applied to.",
    meaning:
      "An operator reads a type the field's schema does not have (`min` on a string, `glob` on an integer), or an `equals`/`in` value can never be equal. The policy checks its rules the same way (`operator-type-mismatch`).",
    fix: "Use an operator for the field's type, or fix the value.",
  },
  {
    code: "property-invalid-condition",
    severity: "error",
    description: "A property's `where:` or `context:` condition does not compile.",
    meaning:
      "The runtime refuses the condition: an unknown operator, a field with no operator, a regular expression, glob, command pattern or URL pattern that does not parse, or a value of the wrong kind.",
    fix: "Fix the operator or its value as the message says; the policy reference describes every operator.",
  },
] as const satisfies readonly DiagnosticMeta[]);

/** A code of a problem in a property file. */
export type PropertyDiagnosticCode = (typeof PROPERTY_DIAGNOSTICS)[number]["code"];

/**
 * A problem in a property file: one of {@link PropertyDiagnosticCode}, or a code of the YAML parser
 * (`yaml-syntax`, `duplicate-key`, …) when the file is not YAML a property file can be read from.
 */
export type PropertyDiagnostic = Diagnostic;

/** Where docs/verify.md is published; each of verify's codes has a heading there, whose anchor is the code. */
export const VERIFY_REFERENCE_URL = "https://toolgate.dev/docs/verify.md";

/**
 * The SARIF `helpUri` of a code verify reports: its section of docs/verify.md for verify's own codes
 * (`property-…`), the policy reference's row for the parser's codes it passes on.
 */
export function verifyHelpUri(code: string): string {
  return code.startsWith("property-") ? `${VERIFY_REFERENCE_URL}#${code}` : helpUri(code);
}

/** A diagnostic with one of verify's codes at `pointer` of `parsed` (its severity from the table). */
export function propertyDiagnostic(
  parsed: ParsedFile,
  pointer: string,
  code: PropertyDiagnosticCode,
  message: string,
  prefer: "key" | "value" = "value",
): PropertyDiagnostic {
  const meta = PROPERTY_DIAGNOSTICS.find((d) => d.code === code) as DiagnosticMeta;
  return diagnosticAt(parsed, pointer, code, message, { severity: meta.severity, prefer });
}

/** A property as written, for the checks that need the bundle (whatever else is wrong with it). */
export interface WrittenProperty {
  /** `/properties/INDEX`. */
  readonly pointer: string;
  /** The id, when it is a non-empty string. */
  readonly id?: string;
  /** The tool names, each with its pointer. */
  readonly tools: readonly { readonly name: string; readonly pointer: string }[];
  /** The `where:` condition, when it is a mapping that compiles. */
  readonly where?: ConditionSpec;
  /** The `context:` condition, when it is a mapping that compiles. */
  readonly context?: ConditionSpec;
}

/** A property file as read, for the checks across files and against the bundle. */
export interface WrittenPropertyFile {
  /** The parsed file; absent when it is not YAML (its problems say so). */
  readonly parsed?: ParsedFile;
  readonly written: readonly WrittenProperty[];
}

/**
 * Property ids used in more than one file: each later use is reported at its id, naming the first. (Within a
 * file, the reader reports them.)
 * @param files - the files in the order they were given.
 */
export function checkPropertyIds(files: readonly WrittenPropertyFile[]): PropertyDiagnostic[] {
  const diagnostics: PropertyDiagnostic[] = [];
  const first = new Map<string, { parsed: ParsedFile; pointer: string }>();
  for (const { parsed, written } of files) {
    if (parsed === undefined) continue;
    for (const property of written) {
      if (property.id === undefined) continue;
      const earlier = first.get(property.id);
      if (earlier === undefined) {
        first.set(property.id, { parsed, pointer: property.pointer });
        continue;
      }
      if (earlier.parsed === parsed) continue;
      const span = positionOf(earlier.parsed, childPointer(earlier.pointer, "id"));
      diagnostics.push(
        propertyDiagnostic(
          parsed,
          childPointer(property.pointer, "id"),
          "property-duplicate-id",
          `property id "${property.id}" is already used at ${earlier.parsed.file}:${span.line}:${span.column}; give each property its own id`,
        ),
      );
    }
  }
  return diagnostics;
}

/** `/rules/N/when…` or `/rules/N/context…` of the checks' policy, back to the property file's pointer. */
const RULE_POINTER = /^\/rules\/(\d+)\/(when|context)(?=\/|$)/;

/**
 * Checks properties against the loaded configuration: every tool is declared; every `where` field is an
 * argument of each tool the property names, every `context` field is in the context_schema; every operator
 * fits its field's type (the policy's `operator-type-mismatch` check, run on the properties' conditions).
 * @param files - the property files as read.
 * @param bundle - the loaded configuration.
 */
export function checkPropertiesAgainstBundle(
  files: readonly WrittenPropertyFile[],
  bundle: Pick<PolicyBundle, "tools" | "contextSchema">,
): PropertyDiagnostic[] {
  const diagnostics: PropertyDiagnostic[] = [];
  const declared = new Set(bundle.tools.map((t) => t.name));
  for (const { parsed, written } of files) {
    if (parsed === undefined) continue;
    for (const property of written) {
      for (const { name, pointer } of property.tools) {
        if (declared.has(name)) continue;
        const near = nearest(name, declared);
        diagnostics.push(
          propertyDiagnostic(
            parsed,
            pointer,
            "property-unknown-tool",
            `tool "${name}" is not declared in the configuration's tool files; ${near === undefined ? "declare it, or name a declared tool" : `did you mean "${near}"?`}`,
          ),
        );
      }
    }
    diagnostics.push(...checkConditions(parsed, written, bundle, declared));
  }
  return diagnostics;
}

/**
 * The fields and operators of the properties' conditions, read as the policy checks read a policy's rules: the
 * properties become the rules of a policy layer (one per property with a condition), the facts the checks
 * read are collected from it, and what is found is reported back at the property file's own pointers.
 */
function checkConditions(
  parsed: ParsedFile,
  written: readonly WrittenProperty[],
  bundle: Pick<PolicyBundle, "tools" | "contextSchema">,
  declared: ReadonlySet<string>,
): PropertyDiagnostic[] {
  const withCondition = written.filter((p) => p.where !== undefined || p.context !== undefined);
  if (withCondition.length === 0) return [];
  const rules = withCondition.map((p, index) => ({
    id: `property-${index}`,
    tools: p.tools.map((t) => t.name),
    decision: "deny",
    reason: "property",
    ...(p.where === undefined ? {} : { when: p.where }),
    ...(p.context === undefined ? {} : { context: p.context }),
  }));
  const layer: PolicyLayer = {
    parsed: { file: parsed.file, data: { rules }, positions: new Map() },
    layer: 0,
    label: "properties",
  };
  const facts = collectPolicyFacts([layer], bundle.tools, declared, bundle.contextSchema, {});
  const back = (pointer: string): string =>
    pointer.replace(RULE_POINTER, (_, index: string, what: string) => {
      const property = withCondition[Number(index)] as WrittenProperty;
      return `${property.pointer}/${what === "when" ? "where" : "context"}`;
    });
  const diagnostics: PropertyDiagnostic[] = [];
  for (const { pointer, field, what, label, root, schema } of facts.conditionFields) {
    if (root === null) {
      diagnostics.push(
        propertyDiagnostic(
          parsed,
          back(pointer),
          "property-unknown-argument",
          `context field "${field}" is read, but the configuration declares no context_schema; declare it in the config file, or remove the field`,
          "key",
        ),
      );
      continue;
    }
    if (schema !== undefined) continue;
    diagnostics.push(
      propertyDiagnostic(
        parsed,
        back(pointer),
        "property-unknown-argument",
        undeclaredFieldMessage(field, what, label, root),
        "key",
      ),
    );
  }
  const report: CheckReport = {
    at: (_, pointer, message, prefer = "value") =>
      diagnostics.push(
        propertyDiagnostic(parsed, back(pointer), "property-operator-type-mismatch", message, prefer),
      ),
    push: () => undefined,
    reported: [],
  };
  operatorTypeCheck.run(facts, report);
  return diagnostics;
}
