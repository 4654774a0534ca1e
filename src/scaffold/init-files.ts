/**
 * The files `toolgate init` writes: a configuration, one tool spec file, a deny-by-default policy that asks
 * for every tool with a placeholder reason, and one policy test per tool, each with a working editor modeline.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { JsonObject, JsonValue } from "../adapters/json-data.js";
import { formatYamlText } from "../config/format-yaml.js";
import type { AcceptedTool } from "./accept-tools.js";
import {
  comments,
  type ToolEntry,
  toolsFileData,
  yamlText,
  yamlTextCommented,
  yamlTextFlowing,
} from "./yaml-text.js";

/** Where each file goes, relative to the project directory (DESIGN section 3's layout). */
export const INIT_LAYOUT = {
  config: "toolgate.config.yaml",
  tools: "policies/tools/tools.yaml",
  policy: "policies/policy.yaml",
  tests: "policies/tests/tools.yaml",
} as const;

/**
 * Where the configuration `init` writes puts the generated files (`codegen.out`, `compile.out`), relative to
 * the project directory: written by init and committed, so that `codegen --check` and `compile --check` pass.
 */
export const INIT_OUTPUTS = {
  codegen: "generated/toolgate.ts",
  compile: "generated/toolgate.controller.mjs",
} as const;

/** The tool written when no source is given: an example to replace. */
export const EXAMPLE_TOOL: ToolEntry = {
  name: "read_file",
  description: "Read a UTF-8 text file inside the workspace.",
  inputSchema: {
    type: "object",
    properties: {
      path: {
        type: "string",
        minLength: 1,
        maxLength: 4096,
        description: "Path relative to the workspace root.",
      },
    },
    required: ["path"],
    additionalProperties: false,
  },
};

/** One file to write: its path relative to the project directory, and its text. */
export interface InitFile {
  readonly path: string;
  readonly text: string;
}

/** What the files are built from. */
export interface InitFilesInput {
  /** The project directory (absolute). */
  readonly dir: string;
  /** The folder holding toolgate's JSON Schemas, as the modelines should reach it (absolute). */
  readonly schemasDir: string;
  readonly tools: readonly AcceptedTool[];
  /** One line per source the tools came from, for the tool file's header; empty for the example tool. */
  readonly sources: readonly string[];
}

/** The reason written for each tool: true of the starting policy, and to be rewritten as the policy grows. */
export function placeholderReason(name: string): string {
  return `a person approves each ${name} call until this policy decides more`;
}

/** The name of the starter test of a tool. */
export function starterTestName(name: string): string {
  return `${name}: a call waits for a person's approval`;
}

/** Builds the four files. */
export function buildInitFiles(input: InitFilesInput): InitFile[] {
  const modeline = (file: string, schema: string) =>
    `# yaml-language-server: $schema=${schemaReference(input.dir, file, input.schemasDir, schema)}\n`;
  const names = input.tools.map((t) => t.name);

  const config =
    modeline(INIT_LAYOUT.config, "config.schema.json") +
    comments([
      "toolgate configuration: where the tool specs, the policy and the policy tests are.",
      "Paths are relative to this file. Reference: docs/policy-reference.md in the toolgate package.",
    ]) +
    "tools: [policies/tools/*.yaml]\npolicy: policies/policy.yaml\ntests: [policies/tests/*.yaml]\n" +
    comments([
      "Written by `toolgate codegen` and `toolgate compile` (commit them; `--check` tells when they are stale).",
    ]) +
    `codegen: { out: ${INIT_OUTPUTS.codegen} }\ncompile: { out: ${INIT_OUTPUTS.compile} }\n`;

  const toolsHeader =
    input.sources.length === 0
      ? [
          "An example tool. Replace it with your agent's tools, or let toolgate read them:",
          'toolgate init --force --from-mcp "<command that starts your MCP server>" (or --from-mcp-url,',
          "--from-openai FILE, --from-anthropic FILE).",
        ]
      : ["Tools read by toolgate init from:", ...input.sources.map((s) => `  ${s}`)];
  const tools =
    modeline(INIT_LAYOUT.tools, "tools.schema.json") +
    comments([
      ...toolsHeader,
      "Each input_schema is what the runtime validates every call's arguments against, before the policy.",
    ]) +
    yamlText(toolsFileData(input.tools));

  const reasons: JsonObject = {};
  for (const name of names) {
    Object.defineProperty(reasons, name, {
      value: placeholderReason(name),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const policy =
    modeline(INIT_LAYOUT.policy, "policy.schema.json") +
    comments([
      "Deny by default: a call that no statement below allows or asks for is denied.",
      "To start, every tool asks for a person's approval. Move what is always safe to `allow:`, what never is",
      "to `deny:`, add `rules:` that decide on named arguments (for example `when: { path: { glob: ... } }`),",
      "and rewrite each reason. `toolgate lint` checks this file and runs the policy tests.",
    ]) +
    (input.tools.some((t) => t.hints !== undefined)
      ? comments([
          "A comment after a tool repeats what its MCP server claims (annotations): hints, not guarantees.",
        ])
      : "") +
    yamlTextCommented({ version: 1, ask: names, reasons }, "ask", (index) => {
      const hints = input.tools[index]?.hints;
      return hints === undefined ? undefined : `server hints: ${hints.join(", ")}`;
    });

  const withSample = input.tools.filter((t) => t.sample !== undefined);
  const without = input.tools.filter((t) => t.sample === undefined);
  let tests =
    modeline(INIT_LAYOUT.tests, "tests.schema.json") +
    comments([
      "One starter test per tool: a call and the decision the policy must give it. Add the calls that matter",
      "(what must be allowed, what must never run) as you change the policy.",
    ]) +
    yamlTextFlowing({ tests: withSample.map((t) => starterTest(t.name, t.sample as JsonValue)) }, ["call"]);
  if (without.length > 0) {
    const body = yamlTextFlowing({ tests: without.map((t) => starterTest(t.name, {})) }, ["call"])
      .split("\n")
      .slice(1)
      .filter((line) => line !== "");
    tests += comments([
      "For these tools no arguments that pass the input_schema could be guessed: fill in `arguments`,",
      "then uncomment (under `tests:` above, and remove its `[]` if it has one).",
      ...body,
    ]);
  }

  return [
    { path: INIT_LAYOUT.config, text: config },
    { path: INIT_LAYOUT.tools, text: tools },
    { path: INIT_LAYOUT.policy, text: policy },
    { path: INIT_LAYOUT.tests, text: tests },
  ];
}

function starterTest(name: string, args: JsonValue): JsonObject {
  return {
    name: starterTestName(name),
    call: { tool: name, arguments: args },
    expect: "ask",
    rule: `ask:${name}`,
  };
}

/**
 * The `$schema` reference from `file` (relative to `dir`) to `schema` in `schemasDir`, as a relative path
 * with `/` separators (what yaml-language-server resolves from the file's folder).
 */
export function schemaReference(dir: string, file: string, schemasDir: string, schema: string): string {
  const path = relative(dirname(join(dir, file)), join(schemasDir, schema))
    .split(sep)
    .join("/");
  return path.startsWith("../") ? path : `./${path}`;
}

/**
 * The `schemas/` folder of the toolgate package that `dir` resolves, looking up through `node_modules` folders
 * as Node does (so a hoisted monorepo install is found); when none is installed there yet, the folder a local
 * install (`npm install --save-dev toolgate`) will create.
 */
export function installedSchemasDir(dir: string): { path: string; installed: boolean } {
  let current = dir;
  for (;;) {
    const candidate = join(current, "node_modules", "toolgate");
    if (isToolgatePackage(candidate) && existsSync(join(candidate, "schemas", "policy.schema.json"))) {
      return { path: join(candidate, "schemas"), installed: true };
    }
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return { path: join(dir, "node_modules", "toolgate", "schemas"), installed: false };
}

function isToolgatePackage(folder: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { name?: unknown };
    return pkg.name === "toolgate";
  } catch {
    return false;
  }
}

/** The state folder toolgate writes (approvals, audit, caches): never committed. */
export const STATE_DIR_IGNORE = ".toolgate/";

/**
 * The `.gitignore` text with `.toolgate/` added, or `undefined` when it already ignores it. An existing file
 * keeps every line; a missing one (`undefined`) becomes a file of that one entry.
 */
export function gitignoreWithState(existing: string | undefined): string | undefined {
  const lines = (existing ?? "").split(/\r?\n/).map((line) => line.trim());
  if (
    lines.some(
      (line) =>
        line === ".toolgate" || line === ".toolgate/" || line === "/.toolgate/" || line === "/.toolgate",
    )
  )
    return undefined;
  if (existing === undefined || existing === "") return `${STATE_DIR_IGNORE}\n`;
  return `${existing}${existing.endsWith("\n") ? "" : "\n"}${STATE_DIR_IGNORE}\n`;
}

/** The files in the layout `toolgate fmt` (prettier) gives them, so that `fmt --check` passes on them at once. */
export async function formatInitFiles<T extends InitFile>(files: readonly T[]): Promise<T[]> {
  const out: T[] = [];
  for (const file of files) {
    if (!/\.ya?ml$/.test(file.path)) {
      out.push(file);
      continue;
    }
    const result = await formatYamlText(file.text, { file: file.path });
    // Built to parse; were one not to, it is written as built and lint reports it.
    out.push(result.ok ? { ...file, text: result.text } : file);
  }
  return out;
}
