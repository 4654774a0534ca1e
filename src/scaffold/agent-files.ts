/**
 * What `toolgate init --agent HOST` writes for a coding agent that the canonical pack gates (Codex, Cursor,
 * OpenCode): a configuration over the pack's canonical tools, a project policy that extends the pack's starting
 * policy, a policy test file, and the host's own hook registration — written so that the host fails closed
 * wherever it can be made to.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The hosts `init --agent` knows. */
export const INIT_AGENTS = ["codex", "cursor", "opencode"] as const;

/** One of them. */
export type InitAgent = (typeof INIT_AGENTS)[number];

/** A file to write, relative to the project folder. */
export interface AgentFile {
  readonly path: string;
  readonly text: string;
}

/** The hook command each registration runs; `|| exit 2` turns any failure to start into Codex's block. */
const HOOK = "npx --no-install toolgate hook";

/**
 * The canonical pack's folder as the project will reach it: the installed toolgate package found from `dir`
 * (through `node_modules` folders, as Node resolves it), else this package's own folder.
 */
export function agentsPackDir(dir: string): string {
  let current = dir;
  for (;;) {
    const candidate = join(current, "node_modules", "toolgate", "policies", "packs", "agents");
    if (existsSync(join(candidate, "tools.yaml")) && isToolgate(join(current, "node_modules", "toolgate"))) {
      return candidate;
    }
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return fileURLToPath(new URL("../../policies/packs/agents/", import.meta.url)).replace(/[\\/]$/, "");
}

function isToolgate(folder: string): boolean {
  try {
    return (
      (JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { name?: unknown }).name ===
      "toolgate"
    );
  } catch {
    return false;
  }
}

/** A path from folder `from` (relative to `dir`) to the absolute `to`, with `/` separators. */
function reach(dir: string, from: string, to: string): string {
  const path = relative(join(dir, from), to).split(sep).join("/");
  return path === "" ? "." : path;
}

/** The files for `agent` in the project folder `dir`. */
export function buildAgentFiles(agent: InitAgent, dir: string): AgentFile[] {
  const pack = agentsPackDir(dir);
  const config = [
    `# toolgate for ${agent === "codex" ? "Codex" : agent === "cursor" ? "Cursor" : "OpenCode"}: the canonical coding-agent tools, one policy for every agent.`,
    `tools: [${reach(dir, ".", join(pack, "tools.yaml"))}]`,
    "policy: policies/policy.yaml",
    "tests: [policies/tests/*.yaml]",
    "",
  ].join("\n");
  const policy = [
    "# Your policy: it extends the pack's starting policy (which it can add to but never loosen).",
    "# A rule here on shell, read_file, write_file, search, web_fetch or mcp_call gates every coding agent.",
    "version: 1",
    `extends: [${reach(dir, "policies", join(pack, "policy.yaml"))}]`,
    "",
  ].join("\n");
  const tests = [
    "# Policy tests: run with `npx toolgate test` (and by `npx toolgate lint`).",
    "tests:",
    "  - name: git status runs without asking",
    "    call: { tool: shell, arguments: { command: git status } }",
    "    expect: allow",
    "  - name: a recursive delete is refused",
    "    call: { tool: shell, arguments: { command: rm -rf build } }",
    "    expect: deny",
    "  - name: environment files are never read",
    "    call: { tool: read_file, arguments: { path: .env } }",
    "    expect: deny",
    "",
  ].join("\n");
  return [
    { path: "toolgate.config.yaml", text: config },
    { path: "policies/policy.yaml", text: policy },
    { path: "policies/tests/agents.yaml", text: tests },
    registration(agent),
  ];
}

/** The host's hook registration, failing closed where the host allows it. */
function registration(agent: InitAgent): AgentFile {
  if (agent === "codex") {
    // Codex lets a call run when a hook crashes or times out; `|| exit 2` blocks when toolgate cannot start.
    const entry = (event: string) => ({
      hooks: [{ type: "command", command: `${HOOK} codex --event ${event} || exit 2`, timeout: 30 }],
    });
    return {
      path: ".codex/hooks.json",
      text: `${JSON.stringify({ hooks: { PreToolUse: [entry("PreToolUse")], PermissionRequest: [entry("PermissionRequest")] } }, null, 2)}\n`,
    };
  }
  if (agent === "cursor") {
    // failClosed: a hook that crashes, times out or answers nothing readable blocks the call.
    const entry = [{ command: `${HOOK} cursor`, failClosed: true, timeout: 30 }];
    return {
      path: ".cursor/hooks.json",
      text: `${JSON.stringify({ version: 1, hooks: { beforeShellExecution: entry, beforeMCPExecution: entry, beforeReadFile: entry } }, null, 2)}\n`,
    };
  }
  return {
    path: ".opencode/plugin/toolgate.ts",
    text: [
      "// toolgate decides every tool call before OpenCode runs it (toolgate.config.yaml in the project).",
      'export { ToolgatePlugin } from "toolgate/opencode";',
      "",
    ].join("\n"),
  };
}
