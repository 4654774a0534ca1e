// Synthetic configurations of any size for the benchmarks: N tools with realistic input schemas, a policy
// that names them all, and R argument rules spread over the tools.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The tool names of a synthetic configuration. */
export function toolNames(tools) {
  return Array.from({ length: tools }, (_, i) => `tool_${String(i).padStart(5, "0")}`);
}

/** YAML of a tool file with `tools` tools. */
export function toolsYaml(tools) {
  const lines = ["tools:"];
  for (const name of toolNames(tools)) {
    lines.push(
      `  - name: ${name}`,
      `    description: Synthetic tool ${name} that reads a path.`,
      "    input_schema:",
      "      type: object",
      "      properties:",
      "        path: { type: string, minLength: 1, maxLength: 4096, description: A path in the workspace. }",
      "        count: { type: integer, minimum: 0, maximum: 1000 }",
      "        mode: { type: string, enum: [fast, safe, full] }",
      "        tags: { type: array, items: { type: string, maxLength: 32 }, maxItems: 16 }",
      "      required: [path]",
      "      additionalProperties: false",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** YAML of a policy naming every tool (60% allow, 20% ask, 20% deny) with `rules` rules. */
export function policyYaml(tools, rules) {
  const names = toolNames(tools);
  const allow = names.filter((_, i) => i % 5 < 3);
  const ask = names.filter((_, i) => i % 5 === 3);
  const deny = names.filter((_, i) => i % 5 === 4);
  const lines = [
    "version: 1",
    `allow: [${allow.join(", ")}]`,
    `ask: [${ask.join(", ")}]`,
    `deny: [${deny.join(", ")}]`,
  ];
  if (rules > 0) lines.push("rules:");
  for (let k = 0; k < rules; k++) {
    const tool = allow[k % allow.length];
    const when =
      k % 3 === 0
        ? `{ path: { glob: "secrets/${k}/**" } }`
        : k % 3 === 1
          ? `{ path: { equals: "private/${k}.txt" } }`
          : `{ count: { min: ${500 + (k % 400)} } }`;
    lines.push(
      `  - id: rule-${k}`,
      `    tools: [${tool}]`,
      `    decision: ${k % 2 === 0 ? "deny" : "ask"}`,
      `    when: ${when}`,
      `    reason: synthetic rule ${k}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Writes a synthetic configuration into `dir` and returns `dir`. */
export function writeSyntheticConfig(dir, { tools, rules = 0 }) {
  mkdirSync(join(dir, "policies"), { recursive: true });
  writeFileSync(
    join(dir, "toolgate.config.yaml"),
    "tools: [policies/tools.yaml]\npolicy: policies/policy.yaml\n",
  );
  writeFileSync(join(dir, "policies/tools.yaml"), toolsYaml(tools));
  writeFileSync(join(dir, "policies/policy.yaml"), policyYaml(tools, rules));
  return dir;
}
