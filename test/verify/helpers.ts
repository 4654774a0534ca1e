import { rmSync } from "node:fs";
import type { PolicyBundle } from "../../src/bundle/policy-bundle.js";
import { loadPolicyResultSync } from "../../src/config/load-policy.js";
import type { ArgumentValidator } from "../../src/runtime/types.js";
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
