import { rmSync } from "node:fs";
import type { PolicyBundle } from "../../src/bundle/policy-bundle.js";
import { loadPolicyResultSync } from "../../src/config/load-policy.js";
import type { ArgumentValidator } from "../../src/runtime/types.js";
import type { FieldDomain, TheoryState } from "../../src/verify/field-domain.js";
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
