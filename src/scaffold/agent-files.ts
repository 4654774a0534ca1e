/**
 * What `toolgate init --agent HOST` writes for a coding agent: for Codex, Cursor and OpenCode a configuration
 * over the canonical pack's tools; for Claude Code and Gemini CLI one over their own packs
 * (policies/packs/claude-code, policies/packs/gemini-cli). Then a project policy that extends the pack's
 * starting policy, a policy test file, and the host's own hook registration — written so that the host fails
 * closed wherever it can be made to.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolgateError } from "../runtime/errors.js";

/** The hosts `init --agent` knows. */
export const INIT_AGENTS = ["codex", "cursor", "opencode", "claude-code", "gemini-cli"] as const;

/** One of them. */
export type InitAgent = (typeof INIT_AGENTS)[number];

/** A file to write, relative to the project folder. */
export interface AgentFile {
  readonly path: string;
  readonly text: string;
  /** The file existed and this text keeps all of it, adding toolgate's hook (so it is not an overwrite). */
  readonly merged?: boolean;
}

/** The agent's display name and the pack folder whose tools it uses. */
const AGENT_PACKS: Readonly<Record<InitAgent, { readonly name: string; readonly pack: string }>> = {
  codex: { name: "Codex", pack: "agents" },
  cursor: { name: "Cursor", pack: "agents" },
  opencode: { name: "OpenCode", pack: "agents" },
  "claude-code": { name: "Claude Code", pack: "claude-code" },
  "gemini-cli": { name: "Gemini CLI", pack: "gemini-cli" },
};

/** The hook command each registration runs; `|| exit 2` turns any failure to start into Codex's block. */
const HOOK = "npx --no-install toolgate hook";

/**
 * The canonical pack's folder as the project will reach it: the installed toolgate package found from `dir`
 * (through `node_modules` folders, as Node resolves it), else this package's own folder.
 */
export function agentsPackDir(dir: string, pack = "agents"): string {
  let current = dir;
  for (;;) {
    const candidate = join(current, "node_modules", "toolgate", "policies", "packs", pack);
    if (existsSync(join(candidate, "tools.yaml")) && isToolgate(join(current, "node_modules", "toolgate"))) {
      return candidate;
    }
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return fileURLToPath(new URL(`../../policies/packs/${pack}/`, import.meta.url)).replace(/[\\/]$/, "");
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

/** The policy tests written for each pack. */
const PACK_TESTS: Readonly<Record<string, readonly string[]>> = {
  agents: [
    "  - name: git status runs without asking",
    "    call: { tool: shell, arguments: { command: git status } }",
    "    expect: allow",
    "  - name: a recursive delete is refused",
    "    call: { tool: shell, arguments: { command: rm -rf build } }",
    "    expect: deny",
    "  - name: environment files are never read",
    "    call: { tool: read_file, arguments: { path: .env } }",
    "    expect: deny",
  ],
  "claude-code": [
    "  - name: git status runs without asking",
    "    call: { tool: Bash, arguments: { command: git status } }",
    "    expect: allow",
    "  - name: a recursive delete is refused",
    "    call: { tool: Bash, arguments: { command: rm -rf build } }",
    "    expect: deny",
    "  - name: environment files are never read",
    "    call: { tool: Read, arguments: { file_path: .env } }",
    "    expect: deny",
  ],
  "gemini-cli": [
    "  - name: git status runs without asking",
    "    call: { tool: run_shell_command, arguments: { command: git status } }",
    "    expect: allow",
    "  - name: a recursive delete is refused",
    "    call: { tool: run_shell_command, arguments: { command: rm -rf build } }",
    "    expect: deny",
    "  - name: environment files are never read",
    "    call: { tool: read_file, arguments: { file_path: .env } }",
    "    expect: deny",
  ],
};

/** The words of the first line of a configuration written over the canonical pack (how init knows one). */
export const CANONICAL_CONFIG_MARK = "the canonical coding-agent tools, one policy for every agent";

/** How `buildAgentFiles` writes. */
export interface AgentFilesOptions {
  /** The canonical pack, also for Claude Code and Gemini CLI (whose default is their own pack). */
  readonly canonical?: boolean;
  /** Only the agent's hook registration: the project already has the shared canonical files. */
  readonly registrationOnly?: boolean;
}

/** The files for `agent` in the project folder `dir`. */
export function buildAgentFiles(agent: InitAgent, dir: string, options: AgentFilesOptions = {}): AgentFile[] {
  if (options.registrationOnly === true) return [registration(agent, dir)];
  const name = AGENT_PACKS[agent].name;
  const packName = options.canonical === true ? "agents" : AGENT_PACKS[agent].pack;
  const pack = agentsPackDir(dir, packName);
  const canonical = packName === "agents";
  // The canonical pack's aliases read each agent's own tools as the canonical ones.
  const toolFiles = canonical ? ["tools.yaml", "aliases.yaml"] : ["tools.yaml"];
  const config = [
    canonical
      ? `# toolgate for ${name}: ${CANONICAL_CONFIG_MARK}.`
      : `# toolgate for ${name}: ${name}'s own tools (the ${packName} pack).`,
    `tools: [${toolFiles.map((file) => reach(dir, ".", join(pack, file))).join(", ")}]`,
    "policy: policies/policy.yaml",
    "tests: [policies/tests/*.yaml]",
    "",
  ].join("\n");
  const policy = [
    "# Your policy: it extends the pack's starting policy (which it can add to but never loosen).",
    canonical
      ? "# A rule here on shell, read_file, write_file, search, web_fetch or mcp_call gates every coding agent."
      : `# Rules here name ${name}'s tools as ${reach(dir, ".", join(pack, "tools.yaml"))} declares them.`,
    "version: 1",
    `extends: [${reach(dir, "policies", join(pack, "policy.yaml"))}]`,
    "",
  ].join("\n");
  const tests = [
    "# Policy tests: run with `npx toolgate test` (and by `npx toolgate lint`).",
    "tests:",
    ...(PACK_TESTS[packName] as readonly string[]),
    "",
  ].join("\n");
  return [
    { path: "toolgate.config.yaml", text: config },
    { path: "policies/policy.yaml", text: policy },
    { path: `policies/tests/${canonical ? "agents" : packName}.yaml`, text: tests },
    registration(agent, dir),
  ];
}

/** Thrown when a settings file that must be merged into cannot be read. */
export class AgentSettingsError extends ToolgateError {
  constructor(message: string) {
    super("usage", message);
  }
}

/**
 * A host settings file (JSON) with `entry` added under `hooks[event]`: the file's other keys and hooks are kept,
 * and an entry equal to `entry` is not added twice. An absent file starts empty.
 */
function mergeHook(dir: string, path: string, event: string, entry: unknown): AgentFile {
  const full = join(dir, path);
  let settings: Record<string, unknown> = {};
  const exists = existsSync(full);
  if (exists) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(full, "utf8"));
    } catch (error) {
      throw new AgentSettingsError(
        `${path} is not JSON (${(error as Error).message}); fix it, or add the hook by hand`,
      );
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new AgentSettingsError(`${path} is not a JSON object; fix it, or add the hook by hand`);
    }
    settings = parsed as Record<string, unknown>;
  }
  const hooks = settings.hooks ?? {};
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) {
    throw new AgentSettingsError(`${path}: "hooks" is not an object; fix it, or add the hook by hand`);
  }
  const list = (hooks as Record<string, unknown>)[event] ?? [];
  if (!Array.isArray(list)) {
    throw new AgentSettingsError(`${path}: "hooks.${event}" is not a list; fix it, or add the hook by hand`);
  }
  const text = JSON.stringify(entry);
  const entries = list.some((e) => JSON.stringify(e) === text) ? list : [...list, entry];
  const merged = { ...settings, hooks: { ...(hooks as Record<string, unknown>), [event]: entries } };
  return { path, text: `${JSON.stringify(merged, null, 2)}\n`, ...(exists ? { merged: true } : {}) };
}

/** Claude Code's variable for the project directory, which it expands in a hook's `args` (not JavaScript). */
// biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code expands it, as docs/claude-code.md shows
const CLAUDE_DIR = "${CLAUDE_PROJECT_DIR}";

/** The host's hook registration, failing closed where the host allows it. */
function registration(agent: InitAgent, dir: string): AgentFile {
  if (agent === "claude-code") {
    // The registration of docs/claude-code.md: exec form (no shell reads the paths), and onFailure "block" so
    // that a hook that cannot start, times out or crashes blocks the call instead of letting it through.
    return mergeHook(dir, ".claude/settings.json", "PreToolUse", {
      matcher: "*",
      hooks: [
        {
          type: "command",
          command: "node",
          args: [
            `${CLAUDE_DIR}/node_modules/toolgate/bin/toolgate.js`,
            "hook",
            "claude-code",
            "--config",
            `${CLAUDE_DIR}/toolgate.config.yaml`,
            "--project",
            CLAUDE_DIR,
          ],
          timeout: 30,
          onFailure: "block",
        },
      ],
    });
  }
  if (agent === "gemini-cli") {
    // The registration of docs/gemini-cli.md: Gemini CLI lets a call run when a hook exits with any code but 2,
    // so `|| exit 2` blocks when toolgate cannot start. $GEMINI_PROJECT_DIR stays unquoted: Gemini CLI
    // substitutes it already quoted for the shell. The timeout is in milliseconds.
    return mergeHook(dir, ".gemini/settings.json", "BeforeTool", {
      matcher: "*",
      hooks: [
        {
          name: "toolgate",
          type: "command",
          command:
            "node $GEMINI_PROJECT_DIR/node_modules/toolgate/bin/toolgate.js hook gemini-cli --config $GEMINI_PROJECT_DIR/toolgate.config.yaml || exit 2",
          timeout: 30000,
        },
      ],
    });
  }
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
