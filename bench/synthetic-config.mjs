// A synthetic toolgate configuration with N tools, for the benchmarks (and the 500-tool codegen test). Tools
// cycle through a few schema shapes (strings with lengths and patterns, integers with ranges, enums, arrays,
// nested objects), each tool's schema its own (descriptions and bounds carry its number, as real tools' schemas
// differ); the policy allows a third, asks a third and denies the rest, with one argument rule per twenty tools
// — or, with `{ rules: R }`, R rules spread over the allowed tools that have a `path` argument. The files are
// block-style YAML, as people write them (`{ style: "json" }` writes JSON, which is YAML too; `{ sameSchemas:
// true }` gives the tools of one shape one schema).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";

/**
 * The input schema of synthetic tool `i`. With `same`, tools of one shape share their schema (but shape 0, whose
 * path has the tool's number in its description), for tests of equal schemas.
 */
export function syntheticSchema(i, same = false) {
  const n = same ? 0 : i;
  const about = (text) => (same ? {} : { description: text });
  const shapes = [
    {
      path: { type: "string", minLength: 1, maxLength: 4096, description: `Path for tool ${i}.` },
      max_bytes: { type: "integer", minimum: 1, maximum: 1048576 + n },
    },
    {
      query: {
        type: "string",
        minLength: 1,
        maxLength: 256 + n,
        pattern: "^[a-z0-9 _-]+$",
        ...about(`Search text for tool ${i}.`),
      },
      limit: { type: "integer", minimum: 1, maximum: 100 },
      mode: { type: "string", enum: ["fast", "exact", "fuzzy"] },
    },
    {
      items: { type: "array", items: { type: "string", maxLength: 64 }, maxItems: 20 + n, uniqueItems: true },
      dry_run: { type: "boolean", ...about(`Only report what tool ${i} would change.`) },
    },
    {
      target: {
        type: "object",
        properties: {
          host: { type: "string", maxLength: 255, ...about(`Host tool ${i} connects to.`) },
          port: { type: "integer", minimum: 1, maximum: 65535 },
        },
        required: ["host"],
        additionalProperties: false,
      },
      timeout_seconds: { type: "number", exclusiveMinimum: 0, maximum: 600 + n },
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
export function writeSyntheticConfig(dir, count, options = {}) {
  mkdirSync(dir, { recursive: true });
  const tools = Array.from({ length: count }, (_, i) => ({
    name: syntheticToolName(i),
    description: `Synthetic tool number ${i}: does one thing well.`,
    input_schema: syntheticSchema(i, options.sameSchemas === true),
  }));
  const text = (data) => (options.style === "json" ? `${JSON.stringify(data, null, 1)}\n` : stringify(data));
  // 250 tools a file keeps every file well under the 1 MiB limit.
  for (let start = 0; start < Math.max(tools.length, 1); start += 250) {
    const file = `tools-${String(start / 250).padStart(3, "0")}.yaml`;
    writeFileSync(join(dir, file), text({ tools: tools.slice(start, start + 250) }));
  }
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
  if (options.rules !== undefined) {
    // Allowed tools of shape 0 have `path` (string) and `max_bytes` (integer): glob, equals and min rules.
    const targets = tools.filter((_, i) => i % 3 === 0 && i % 4 === 0).map((t) => t.name);
    rules.length = 0;
    for (let k = 0; k < options.rules; k++) {
      const when =
        k % 3 === 0
          ? { path: { glob: `secrets/${k}/**` } }
          : k % 3 === 1
            ? { path: { equals: `private/${k}.txt` } }
            : { max_bytes: { min: 500_000 + k } };
      rules.push({
        id: `rule-${k}`,
        tools: [targets[k % targets.length]],
        decision: k % 2 === 0 ? "deny" : "ask",
        when,
        reason: `synthetic rule ${k}`,
      });
    }
  }
  const policy = { version: 1, allow, ask, deny, rules };
  writeFileSync(join(dir, "policy.yaml"), text(policy));
  const config = join(dir, "toolgate.config.yaml");
  writeFileSync(
    config,
    "tools: [tools-*.yaml]\npolicy: policy.yaml\ncodegen: { out: generated/toolgate.ts }\ncompile: { out: generated/toolgate.controller.mjs }\n",
  );
  return config;
}
