// A synthetic toolgate configuration with N tools, for the cold-start and codegen benchmarks (and the
// 500-tool codegen test). Tools cycle through a few schema shapes (strings with lengths and patterns,
// integers with ranges, enums, arrays, nested objects); the policy allows a third, asks a third and denies
// the rest, with one argument rule per ten tools.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The input schema of synthetic tool `i`. */
export function syntheticSchema(i) {
  const shapes = [
    {
      path: { type: "string", minLength: 1, maxLength: 4096, description: `Path for tool ${i}.` },
      max_bytes: { type: "integer", minimum: 1, maximum: 1048576 },
    },
    {
      query: { type: "string", minLength: 1, maxLength: 256, pattern: "^[a-z0-9 _-]+$" },
      limit: { type: "integer", minimum: 1, maximum: 100 },
      mode: { type: "string", enum: ["fast", "exact", "fuzzy"] },
    },
    {
      items: { type: "array", items: { type: "string", maxLength: 64 }, maxItems: 20, uniqueItems: true },
      dry_run: { type: "boolean", description: "Only report what would change." },
    },
    {
      target: {
        type: "object",
        properties: {
          host: { type: "string", maxLength: 255 },
          port: { type: "integer", minimum: 1, maximum: 65535 },
        },
        required: ["host"],
        additionalProperties: false,
      },
      timeout_seconds: { type: "number", exclusiveMinimum: 0, maximum: 600 },
    },
  ];
  const properties = shapes[i % shapes.length];
  return {
    type: "object",
    properties,
    required: [Object.keys(properties)[0]],
    additionalProperties: false,
  };
}

/** The name of synthetic tool `i`. */
export function syntheticToolName(i) {
  return `tool_${String(i).padStart(4, "0")}`;
}

/**
 * Writes toolgate.config.yaml, tools.yaml and policy.yaml for `count` tools into `dir`.
 * @returns the config file's path.
 */
export function writeSyntheticConfig(dir, count) {
  mkdirSync(dir, { recursive: true });
  const tools = Array.from({ length: count }, (_, i) => ({
    name: syntheticToolName(i),
    description: `Synthetic tool number ${i}: does one thing well.`,
    input_schema: syntheticSchema(i),
  }));
  // JSON is YAML.
  writeFileSync(join(dir, "tools.yaml"), `${JSON.stringify({ tools }, null, 1)}\n`);
  const allow = [];
  const ask = [];
  const deny = [];
  const rules = [];
  tools.forEach((tool, i) => {
    [allow, ask, deny][i % 3].push(tool.name);
    if (i % 10 === 0 && i % 4 === 0) {
      rules.push({
        id: `rule-${i}`,
        tools: [tool.name],
        decision: "deny",
        when: { path: { glob: "**/.env*" } },
        reason: `secret files are never read by ${tool.name}`,
      });
    }
  });
  const policy = { version: 1, allow, ask, deny, rules };
  writeFileSync(join(dir, "policy.yaml"), `${JSON.stringify(policy, null, 1)}\n`);
  const config = join(dir, "toolgate.config.yaml");
  writeFileSync(
    config,
    "tools: [tools.yaml]\npolicy: policy.yaml\ncodegen: { out: generated/toolgate.ts }\ncompile: { out: generated/toolgate.controller.mjs }\n",
  );
  return config;
}
