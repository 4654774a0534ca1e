import { rmSync } from "node:fs";
import { expect } from "vitest";
import type { PolicyBundle } from "../../src/bundle/policy-bundle.js";
import { loadPolicyResultSync } from "../../src/config/load-policy.js";
import { ToolPolicy } from "../../src/runtime/policy.js";
import type { ArgumentValidator, JsonSchema, PolicyAction } from "../../src/runtime/types.js";
import { AutomataPool } from "../../src/verify/automata.js";
import { FieldDomain, type TheoryState } from "../../src/verify/field-domain.js";
import { AtomTable, fieldRef } from "../../src/verify/formula.js";
import { type Property, Verifier } from "../../src/verify/verify-properties.js";
import { writeTree } from "../cli/cli-helpers.js";

/** Loads a configuration made of a tools file and a policy file (YAML text), through the real loader. */
export function loadFromText(
  tools: string,
  policy: string,
  config = "",
): { bundle: PolicyBundle; validators: ReadonlyMap<string, ArgumentValidator> } {
  const dir = writeTree({
    "toolgate.config.yaml": `tools: [tools.yaml]\npolicy: policy.yaml\n${config}`,
    "tools.yaml": tools,
    "policy.yaml": policy,
  });
  try {
    const loaded = loadPolicyResultSync({ cwd: dir });
    if (loaded.bundle === undefined) {
      throw new Error(
        `the configuration does not load: ${loaded.diagnostics.map((d) => d.message).join("; ")}`,
      );
    }
    return { bundle: loaded.bundle, validators: loaded.validators };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One full assignment of truths to a field's atoms that the string theory admits, with its witness. */
export interface Reached {
  readonly truths: string;
  readonly state: TheoryState;
  readonly witness: { readonly text: string; readonly loose: boolean } | undefined;
}

/** Every full assignment of truths `assign` admits, atom after atom in order, with its witness. */
export function reachable(domain: FieldDomain): Reached[] {
  const theory = domain.strings();
  if (theory === null) throw new Error("strings are not modelled");
  const out: Reached[] = [];
  const walk = (i: number, state: TheoryState, path: string, truths: string): void => {
    if (i === domain.atoms.length) {
      out.push({ truths, state, witness: theory.witness(state, path) });
      return;
    }
    for (const truth of [0, 1, 2] as const) {
      const key = `${path}${i}:${truth};`;
      const next = theory.assign(state, i, truth, key);
      if (next !== null) walk(i + 1, next, key, `${truths}${truth}`);
    }
  };
  walk(0, theory.initial, "", "");
  return out;
}

/** The tool specs of one shell tool, as `loadFromText` takes them: a required `command` string of 1 to `maxLength`. */
export function shellTools(name = "run_shell", maxLength = 512): string {
  return JSON.stringify({
    tools: [
      {
        name,
        description: "Runs a command.",
        input_schema: {
          type: "object",
          properties: { command: { type: "string", minLength: 1, maxLength } },
          required: ["command"],
          additionalProperties: false,
        },
      },
    ],
  });
}

/** The tool specs of one `read_file` tool: a required `path` string of 1 to 4,096 characters, of `pattern` if given. */
export function readFileTools(pattern?: string): string {
  return JSON.stringify({
    tools: [
      {
        name: "read_file",
        description: "Read a file.",
        input_schema: {
          type: "object",
          properties: {
            path: {
              type: "string",
              minLength: 1,
              maxLength: 4096,
              ...(pattern === undefined ? {} : { pattern }),
            },
          },
          required: ["path"],
          additionalProperties: false,
        },
      },
    ],
  });
}

/** The field the string-theory tests read: an argument `f`. */
export const FIELD_REF = fieldRef("arguments", "f");

/**
 * A string field of these operators (and, with `accepts`, of an operator the theory does not know, true on that
 * string alone) under `schema`, with a fresh pool of automata.
 */
export function stringField(
  operators: readonly (readonly [string, unknown])[],
  accepts?: string,
  schema: JsonSchema = { type: "string" },
): FieldDomain {
  const table = new AtomTable();
  for (const [operator, value] of operators) table.atom(FIELD_REF, operator, value);
  if (accepts !== undefined)
    table.custom(FIELD_REF, "custom-operator", accepts, (v) => (v === accepts ? 1 : 0));
  return new FieldDomain(FIELD_REF, table.atoms, [{ schema, missingAllowed: false }], new AutomataPool());
}

/** The values a field falls back to where its string theory is too large (`fallbackStrings`), in order. */
export function fallbackValues(domain: FieldDomain): unknown[] {
  return domain.fallbackStrings().flatMap((o) => (o.kind === "value" ? [o.value] : []));
}

/** `truths=witness` of every reachable assignment (`~` after a loose witness, `-` for none), each witness checked. */
export function summary(domain: FieldDomain): string[] {
  return reachable(domain).map((r) => {
    if (r.witness !== undefined)
      expect(domain.atoms.map((a) => a.test(r.witness?.text)).join(""), r.witness.text).toBe(r.truths);
    const text = r.witness === undefined ? "-" : `${r.witness.text}${r.witness.loose ? "~" : ""}`;
    return `${r.truths}=${text}`;
  });
}

/**
 * Verifies one property of a policy (tools and policy as `loadFromText` takes them) and expects it to fail with
 * exactly these arguments (no context) as the witness, which the controller itself decides as `decision`.
 * @returns the policy's controller, for further calls.
 */
export function expectFailsWith(
  tools: string,
  policy: string,
  property: Property,
  args: Record<string, unknown>,
  decision: PolicyAction,
): ToolPolicy {
  const { bundle, validators } = loadFromText(tools, policy);
  const [result] = new Verifier(bundle, validators).verify([property]);
  expect(result).toEqual({
    id: property.id,
    status: "fails",
    witness: { tool: property.tools[0], arguments: args, context: {}, decision },
  });
  const controller = ToolPolicy.fromStatements(bundle.statements);
  expect(
    controller.decide({ callId: "c", toolName: property.tools[0] as string, arguments: args }).action,
  ).toBe(decision);
  return controller;
}
