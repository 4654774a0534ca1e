/**
 * Turns Claude Code's permission rules (`permissions.allow`, `ask`, `deny` of a settings.json) into a
 * toolgate policy over the Claude Code tool pack (policies/packs/claude-code/tools.yaml), with the same
 * meaning: deny > ask > allow, whatever the order (toolgate's strictest-wins).
 *
 * Rule syntax from https://code.claude.com/docs/en/permissions ("Permission rule syntax", "Tool-specific
 * permission rules") and the rule formats table of https://code.claude.com/docs/en/tools-reference.
 * A rule that cannot be carried exactly becomes a stricter one — an allow narrower or dropped, a deny or ask
 * wider — and is reported with what was done instead. Never looser.
 */
import { dirname, resolve, sep } from "node:path";
import { compileGlob } from "../runtime/match/glob.js";
import { compileUrl } from "../runtime/match/url.js";
import { commandPrefix, isPlainWord } from "./command-prefix.js";

/** One of Claude Code's three rule lists. */
export type RuleList = "allow" | "ask" | "deny";

/** How a rule was carried. */
export type Carried = "exact" | "stricter" | "not-carried";

/** What happened to one rule. */
export interface ImportFinding {
  readonly file: string;
  readonly list: RuleList;
  readonly rule: string;
  readonly carried: Carried;
  /** What was done, for every rule not carried exactly. */
  readonly note?: string;
  /** The ids of the toolgate rules written for it. */
  readonly ids: readonly string[];
}

/** A settings file to import. */
export interface SettingsSource {
  /** The file name, for findings and for anchoring `/path` rules. */
  readonly file: string;
  readonly text: string;
}

/** Options of the import. */
export interface ClaudeCodeImportOptions {
  /** The project directory (Claude Code's `cwd`); default: the directory holding `.claude/`. */
  readonly project?: string;
  /** The home directory that `~/` rules expand to. */
  readonly home: string;
  /**
   * The hook runs with `--unreadable deny`: a deny of a tool outside the pack (`Skill`, `PowerShell`, a
   * tool-name glob such as `*`) is then carried by it. Without it such a deny is refused, never dropped.
   */
  readonly unreadableDeny?: boolean;
}

/** Claude Code's permission modes (`permissions.defaultMode`). */
export const DEFAULT_MODES = [
  "default",
  "acceptEdits",
  "plan",
  "auto",
  "dontAsk",
  "bypassPermissions",
] as const;

/** How `permissions.defaultMode` was carried. */
export interface ModeFinding {
  readonly file: string;
  readonly mode: string;
  readonly carried: Carried;
  readonly note: string;
}

/** The result: the policy YAML, every finding, and notes about settings that are not rules. */
export type ClaudeCodeImport =
  | {
      readonly ok: true;
      readonly yaml: string;
      readonly findings: readonly ImportFinding[];
      /** `permissions.defaultMode` of each file that sets one. */
      readonly modes: readonly ModeFinding[];
      readonly notes: readonly string[];
    }
  | { readonly ok: false; readonly message: string };

/** A toolgate rule as it will be written. */
interface RuleOut {
  readonly id: string;
  readonly tools: readonly string[];
  readonly decision: RuleList;
  /** `when`, written as JSON (valid YAML flow); absent for a rule on every call. */
  readonly when?: Record<string, unknown>;
  readonly reason: string;
}

/** The tools of the pack, in the order the policy lists their fallbacks. */
const PACK_TOOLS = [
  "Bash",
  "Read",
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
  "Glob",
  "Grep",
  "WebFetch",
  "WebSearch",
  "Agent",
  "MCP",
] as const;

/** Argument fields of the pack's tools whose scalar values `Tool(param:value)` rules may match. */
const PARAM_FIELDS: Readonly<Record<string, Readonly<Record<string, "string" | "number" | "boolean">>>> = {
  Bash: {
    description: "string",
    timeout: "number",
    run_in_background: "boolean",
    dangerouslyDisableSandbox: "boolean",
  },
  Read: { offset: "number", limit: "number", pages: "string", allow_large: "boolean" },
  Write: {},
  Edit: { replace_all: "boolean" },
  MultiEdit: {},
  NotebookEdit: { cell_id: "string", cell_type: "string", edit_mode: "string" },
  Glob: { pattern: "string" },
  Grep: { pattern: "string", glob: "string", type: "string", output_mode: "string", multiline: "boolean" },
  WebFetch: { prompt: "string" },
  WebSearch: { query: "string" },
  Agent: {
    subagent_type: "string",
    model: "string",
    effort: "string",
    run_in_background: "boolean",
    name: "string",
    mode: "string",
    isolation: "string",
  },
};

/**
 * Shell commands that read files, which Claude Code checks `Read(…)` deny and ask rules against (its file
 * commands, and more: a longer list is stricter). Interpreters (`python -c`, `node -e`) are not among them.
 */
export const FILE_READ_COMMANDS = [
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "most",
  "sed",
  "awk",
  "gawk",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "ag",
  "cut",
  "sort",
  "uniq",
  "wc",
  "nl",
  "od",
  "xxd",
  "hexdump",
  "strings",
  "diff",
  "cmp",
  "comm",
  "file",
  "stat",
  "base64",
  "tac",
  "rev",
  "fold",
  "fmt",
  "paste",
  "join",
  "column",
  "bat",
  "view",
  "vi",
  "vim",
  "nvim",
  "nano",
  "emacs",
  "jq",
  "yq",
  "zcat",
  "zless",
  "zgrep",
  "bzcat",
  "xzcat",
  "gunzip",
  "tar",
  "zip",
  "gzip",
  "cp",
  "scp",
  "rsync",
  "ln",
  "mv",
  "find",
  "ls",
  "source",
  ".",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "shasum",
  "readlink",
] as const;

/** Shell commands that write, create, move or remove files, which Claude Code checks `Edit(…)` rules against. */
export const FILE_WRITE_COMMANDS = [
  "tee",
  "cp",
  "mv",
  "rm",
  "touch",
  "truncate",
  "sed",
  "perl",
  "dd",
  "install",
  "ln",
  "chmod",
  "chown",
  "chgrp",
  "mkdir",
  "rmdir",
  "unlink",
  "shred",
  "patch",
  "vi",
  "vim",
  "nvim",
  "nano",
  "emacs",
  "ed",
  "ex",
  "rsync",
  "scp",
  "tar",
  "unzip",
  "gunzip",
  "gzip",
  "zip",
  "git",
  "awk",
  "gawk",
  "split",
  "csplit",
  "sort",
  "yq",
] as const;

/** Which shell file commands a `Read(…)` or `Edit(…)` deny or ask reaches: a Read deny blocks edits too. */
function fileCommands(tool: "Read" | "Edit"): string[] {
  const list: readonly string[] =
    tool === "Read" ? [...FILE_READ_COMMANDS, ...FILE_WRITE_COMMANDS] : FILE_WRITE_COMMANDS;
  return [...new Set(list)].filter((c) => commandPrefix([c], false) !== undefined);
}

/**
 * The names a shell command may use to reach a path the pattern matches: the longest run of plain characters
 * of the last segment that has one (`./.env` → `.env`, `secrets/**` → `secrets`, `*.pem` → `.pem`), and of each
 * directory segment above it of two or more characters (`secrets/key.txt` → `key.txt`, `secrets`: a recursive
 * `grep -r x secrets` names only the directory). The part that is the project or home directory itself is left
 * out. Empty when no segment has a plain character (`**`, `*`): then every file command counts.
 */
function mentionedNames(spec: string, anchors: Anchors): string[] {
  let rest = spec.trim().replace(/\\(.)/g, "$1");
  if (rest.startsWith("//")) {
    const absolute = rest.slice(1);
    for (const root of [anchors.project, anchors.home]) {
      if (absolute === root || absolute.startsWith(`${root}/`)) {
        rest = absolute.slice(root.length);
        break;
      }
    }
  }
  const segments = rest.split("/").filter((s) => s !== "" && s !== "." && s !== ".." && s !== "~");
  const runs = segments.map((segment) => {
    const parts = segment.split(/\*+|\?|\[[^\]]*\]?/).filter((r) => r !== "");
    return parts.length === 0 ? undefined : parts.reduce((a, b) => (b.length > a.length ? b : a));
  });
  let last = runs.length - 1;
  while (last >= 0 && runs[last] === undefined) last -= 1;
  if (last < 0) return [];
  const names = [runs[last] as string];
  for (const run of runs.slice(0, last)) if (run !== undefined && run.length >= 2) names.push(run);
  return [...new Set(names)];
}

/**
 * The `Bash` rule that carries a `Read(…)`/`Edit(…)` deny or ask to the shell: any of the file commands whose
 * command string mentions one of the names, ignoring case and quotes spliced into it (`'.e'nv`). A command
 * outside the safe shell subset is never allowed anyway, so within it a name must appear, letter by letter, for
 * the command to reach the path by that name.
 */
function bashFileRule(tool: "Read" | "Edit", names: readonly string[]): Converted["rules"][number] {
  const command: Record<string, unknown> = { command: fileCommands(tool) };
  if (names.length > 0) {
    const spelled = names.map((name) =>
      [...name].map((c) => c.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")).join("[\"']*"),
    );
    command.regex = { pattern: spelled.join("|"), flags: "i" };
  }
  return { tools: ["Bash"], when: { command } };
}

/** What the report says about the shell side of a Read or Edit deny or ask. */
function bashFileNote(tool: "Read" | "Edit", names: readonly string[]): string {
  return `also carried to Bash: ${tool === "Read" ? "any file-reading or file-writing command (cat, head, grep, sed, cp, …" : "any file-writing command (tee, cp, mv, rm, sed, …"} — the lists in src/import/claude-code.ts)${names.length === 0 ? "" : ` whose command line mentions ${names.map((n) => JSON.stringify(n)).join(" or ")} anywhere (any case, quotes spliced in)`}, wider than the path itself: stricter. Not caught, and so possibly looser than Claude Code: a command that reaches the path without naming it — a symbolic link under another name (the hook follows links for the file tools, not inside a command line), a recursive read of a directory above it that it does not name (grep -r x .), a program outside the list such as python -c`;
}

/** Which tools and fields a `Read(path)` or `Edit(path)` rule reaches, per list. */
function pathTargets(tool: "Read" | "Edit", list: RuleList): readonly { tools: string[]; field: string }[] {
  const files = { tools: [] as string[], field: "file_path" };
  const search = { tools: [] as string[], field: "path" };
  const notebook = { tools: [] as string[], field: "notebook_path" };
  if (tool === "Read") {
    // Read rules reach Grep and Glob (best effort, says the page); a Read deny also blocks Edit and Write on
    // the path. Ask and deny add the other editing tools too: wider is stricter.
    files.tools.push("Read");
    search.tools.push("Glob", "Grep");
    if (list !== "allow") {
      files.tools.push("Write", "Edit", "MultiEdit");
      notebook.tools.push("NotebookEdit");
    }
  } else {
    // Edit rules reach every tool that edits files; an Edit allow also grants reading the same path.
    files.tools.push("Write", "Edit", "MultiEdit");
    notebook.tools.push("NotebookEdit");
    if (list === "allow") {
      files.tools.unshift("Read");
      search.tools.push("Glob", "Grep");
    }
  }
  return [files, search, notebook].filter((t) => t.tools.length > 0);
}

/** Tools a bare rule name reaches: wider for deny and ask (the page: Edit rules cover every editing tool). */
function bareTargets(tool: string, list: RuleList): readonly string[] {
  if (list === "allow") return [tool];
  if (tool === "Read") return ["Read", "Glob", "Grep"];
  if (tool === "Edit") return ["Edit", "Write", "MultiEdit", "NotebookEdit"];
  return [tool];
}

/** Converts settings files into one policy. */
export function importClaudeCodeSettings(
  sources: readonly SettingsSource[],
  options: ClaudeCodeImportOptions,
): ClaudeCodeImport {
  const rules: RuleOut[] = [];
  const findings: ImportFinding[] = [];
  const notes: string[] = [];
  const modes: ModeFinding[] = [];
  const counters = { allow: 0, ask: 0, deny: 0 };
  for (const source of sources) {
    let settings: unknown;
    try {
      settings = JSON.parse(source.text);
    } catch (error) {
      return { ok: false, message: `${source.file} is not JSON: ${(error as Error).message}` };
    }
    if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
      return { ok: false, message: `${source.file}: the settings must be a JSON object` };
    }
    const permissions = (settings as Record<string, unknown>).permissions;
    if (permissions === undefined) {
      notes.push(`${source.file} has no "permissions"; nothing to import from it`);
      continue;
    }
    if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) {
      return { ok: false, message: `${source.file}: "permissions" must be an object` };
    }
    const perms = permissions as Record<string, unknown>;
    const anchors = anchorsFor(source.file, options);
    for (const list of ["deny", "ask", "allow"] as const) {
      const entries = perms[list];
      if (entries === undefined) continue;
      if (!Array.isArray(entries) || entries.some((e) => typeof e !== "string")) {
        return { ok: false, message: `${source.file}: permissions.${list} must be a list of strings` };
      }
      for (const rule of entries as string[]) {
        counters[list] += 1;
        const base = `claude-${list}-${counters[list]}`;
        const reason = `Claude Code's permissions.${list} rule ${JSON.stringify(rule)} (${source.file})`;
        const out = convertRule(rule, list, anchors, options.unreadableDeny === true);
        if (out.refuse !== undefined) {
          return {
            ok: false,
            message: `${source.file}: permissions.${list} rule ${JSON.stringify(rule)}: ${out.refuse}`,
          };
        }
        const written = out.rules.map((r, i) => ({
          ...r,
          id: out.rules.length === 1 ? base : `${base}-${i + 1}`,
          decision: list,
          reason,
        }));
        rules.push(...written);
        findings.push({
          file: source.file,
          list,
          rule,
          carried: out.carried,
          ...(out.note === undefined ? {} : { note: out.note }),
          ids: written.map((r) => r.id),
        });
      }
    }
    if (perms.defaultMode !== undefined) {
      const mode = perms.defaultMode;
      if (typeof mode !== "string" || !(DEFAULT_MODES as readonly string[]).includes(mode)) {
        return {
          ok: false,
          message: `${source.file}: permissions.defaultMode ${JSON.stringify(mode)} is not a mode this import knows (${DEFAULT_MODES.join(", ")}); it is not dropped silently — remove it or set a known one`,
        };
      }
      if (mode === "plan") {
        return {
          ok: false,
          message: `${source.file}: permissions.defaultMode "plan" cannot be carried: in plan mode Claude Code edits no files and runs no commands that change anything, and a toolgate policy has no mode to say so (its allow rules would let those run). Remove defaultMode, or set "default" or "dontAsk", and import again`,
        };
      }
      modes.push({ file: source.file, mode, ...modeCarried(mode) });
    }
    for (const key of Object.keys(perms)) {
      if (key === "allow" || key === "ask" || key === "deny" || key === "defaultMode") continue;
      notes.push(
        `${source.file}: permissions.${key} is not a rule list and is not carried; the toolgate policy decides without it (${key === "additionalDirectories" ? "reads there ask instead of running: stricter" : "review it by hand"})`,
      );
    }
  }
  const dontAsk = modes.some((m) => m.mode === "dontAsk");
  if (dontAsk) {
    // dontAsk: whatever would prompt is denied. Every ask rule becomes a deny, and so does the fallback.
    for (const [i, rule] of rules.entries()) {
      if (rule.decision === "ask") rules[i] = { ...rule, decision: "deny" };
    }
    for (const [i, f] of findings.entries()) {
      if (f.list !== "ask") continue;
      findings[i] = {
        ...f,
        note: `${f.note === undefined ? "" : `${f.note}; `}${
          f.ids.length > 0
            ? 'written as deny: defaultMode "dontAsk" denies what would ask'
            : 'defaultMode "dontAsk" denies what would ask: run the hook with --unreadable deny so these calls are denied too'
        }`,
      };
    }
    notes.push(
      'defaultMode "dontAsk": calls no imported rule allows are denied (otherwise: deny) and every ask rule is a deny, as Claude Code denies whatever would prompt; run the hook with --unreadable deny so that tools outside the pack are denied too',
    );
  } else {
    notes.push(
      "calls no imported rule matches get the fallback ask (otherwise), where Claude Code runs some of them without a prompt (reads and searches inside the project, its read-only commands, preapproved domains): stricter",
    );
  }
  return {
    ok: true,
    yaml: writePolicy(rules, sources, dontAsk ? "deny" : "ask"),
    findings,
    modes,
    notes,
  };
}

/** How a mode other than plan is carried. */
function modeCarried(mode: string): { carried: Carried; note: string } {
  switch (mode) {
    case "dontAsk":
      return {
        carried: "stricter",
        note: "carried: every ask rule is written as deny, and calls no rule allows are denied (otherwise: deny); Claude Code still runs what needs no approval (reads inside the project, its read-only commands), which is denied here too unless a rule allows it: stricter",
      };
    case "default":
      return { carried: "exact", note: "Claude Code's standard mode: nothing to carry" };
    case "acceptEdits":
      return {
        carried: "not-carried",
        note: "not carried: edits and file-system commands that Claude Code would accept without a prompt ask (otherwise), unless a rule allows them: stricter",
      };
    case "auto":
      return {
        carried: "not-carried",
        note: "not carried: calls Claude Code would approve after its background check ask (otherwise), unless a rule allows them: stricter",
      };
    default:
      return {
        carried: "not-carried",
        note: "not carried: Claude Code would run every call without a prompt (denies aside); the policy keeps every ask rule and asks where no rule decides: stricter",
      };
  }
}

interface Anchors {
  /** Absolute project directory, without a trailing slash. */
  readonly project: string;
  readonly home: string;
  /** Where a `/path` rule is anchored: the project (relative) or an absolute directory. */
  readonly slashRoot: string;
}

function anchorsFor(file: string, options: ClaudeCodeImportOptions): Anchors {
  const absolute = resolve(file);
  const dir = dirname(absolute);
  const inClaudeDir = dir.endsWith(`${sep}.claude`);
  const project = trimSlash(resolve(options.project ?? (inClaudeDir ? dirname(dir) : process.cwd())));
  const home = trimSlash(resolve(options.home));
  // Project and local settings anchor `/path` at the project; user settings at ~/.claude; any other file at
  // its own directory (the page's table "`/path` resolves to").
  const slashRoot = inClaudeDir && dirname(dir) === home ? dir : inClaudeDir ? project : dir;
  return { project, home, slashRoot: trimSlash(slashRoot) };
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

/** A converted rule before ids and reasons. */
interface Converted {
  readonly rules: readonly Omit<RuleOut, "id" | "decision" | "reason">[];
  readonly carried: Carried;
  readonly note?: string;
  /** Why the import must stop: a rule that can be neither carried nor dropped. */
  readonly refuse?: string;
}

const whole = (tools: readonly string[]): Converted["rules"] => [{ tools }];

/** What to do with a rule that cannot be carried: drop an allow, widen a deny or ask to every call of its tools. */
function fallback(list: RuleList, tools: readonly string[], why: string): Converted {
  if (list === "allow") {
    return {
      rules: [],
      carried: "not-carried",
      note: `${why}; not carried, so the calls it allows fall to the fallback (ask): stricter`,
    };
  }
  return {
    rules: whole(tools),
    carried: "stricter",
    note: `${why}; carried as a ${list} of every ${tools.join("/")} call: stricter`,
  };
}

function convertRule(rule: string, list: RuleList, anchors: Anchors, unreadableDeny: boolean): Converted {
  const match = /^([^()\s]+)(?:\(([\s\S]*)\))?$/.exec(rule.trim());
  if (match === null) {
    return {
      rules: [],
      carried: "not-carried",
      note: "not a rule Claude Code can read (Tool or Tool(specifier)); Claude Code ignores it too",
    };
  }
  const tool = match[1] as string;
  const spec = match[2];
  if (tool.startsWith("mcp__") || tool.includes("*"))
    return convertToolPattern(tool, spec, list, unreadableDeny);
  if (!(PACK_TOOLS as readonly string[]).includes(tool) || tool === "MCP")
    return outsidePack(tool, list, unreadableDeny);
  if (spec === undefined || spec.trim() === "*" || spec.trim() === "") {
    if (spec?.trim() === "*" && list === "allow" && (tool === "Read" || tool === "Edit")) {
      return convertPath(tool, "*", list, anchors);
    }
    const tools = bareTargets(tool, list);
    if (list !== "allow" && (tool === "Read" || tool === "Edit")) {
      return {
        rules: [...whole(tools), bashFileRule(tool, [])],
        carried: "stricter",
        note: `carried for ${tools.join(", ")}: stricter; ${bashFileNote(tool, [])}`,
      };
    }
    return {
      rules: whole(tools),
      carried: tools.length === 1 ? "exact" : "stricter",
      ...(tools.length === 1 ? {} : { note: `carried for ${tools.join(", ")}: stricter` }),
    };
  }
  const param = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*([\s\S]*)$/.exec(spec);
  const fields = PARAM_FIELDS[tool] ?? {};
  if (param !== null && list !== "allow" && Object.hasOwn(fields, param[1] as string)) {
    const byParam = convertParam(
      tool,
      param[1] as string,
      param[2] as string,
      fields[param[1] as string] as string,
      list,
    );
    if (tool !== "Bash") return byParam;
    // `Bash(timeout:*)` also reads as the legacy prefix rule for the command `timeout`: a deny or ask takes both.
    const byCommand = convertBash(spec, list);
    return {
      rules: [...byParam.rules, ...byCommand.rules],
      carried: "stricter",
      note: "read both as a parameter rule and as a command rule: stricter",
    };
  }
  switch (tool) {
    case "Bash":
      return convertBash(spec, list);
    case "Read":
    case "Edit":
      return convertPath(tool, spec, list, anchors);
    case "Write":
    case "MultiEdit":
    case "NotebookEdit":
    case "Glob": {
      if (list === "allow") {
        return {
          rules: [],
          carried: "not-carried",
          note: `Claude Code never consults a ${tool}(path) rule (it wants Edit(path) or Read(path)); not carried either`,
        };
      }
      const field = tool === "NotebookEdit" ? "notebook_path" : tool === "Glob" ? "path" : "file_path";
      const globs = pathGlobs(spec, list, anchors);
      if (!globs.ok) return fallback(list, [tool], globs.why);
      return {
        rules: [{ tools: [tool], when: { [field]: { glob: globs.globs } } }],
        carried: "stricter",
        note: `Claude Code never consults a ${tool}(path) rule; carried as a ${list} of ${tool} on the path anyway: stricter`,
      };
    }
    case "WebFetch":
      return convertDomain(spec, list);
    case "Agent": {
      const name = spec.trim();
      if (name.includes("*"))
        return fallback(list, ["Agent"], `the agent name ${JSON.stringify(name)} has a wildcard`);
      return { rules: [{ tools: ["Agent"], when: { subagent_type: { equals: name } } }], carried: "exact" };
    }
    default:
      return fallback(list, [tool], `${tool} takes no specifier`);
  }
}

/** A rule on a tool the pack does not declare: the hook answers its calls with `--unreadable`. */
function outsidePack(tool: string, list: RuleList, unreadableDeny: boolean): Converted {
  const why = `${tool} is not in the Claude Code pack, so no toolgate rule can name it; the hook answers its calls with --unreadable`;
  if (list === "allow") {
    return {
      rules: [],
      carried: "not-carried",
      note: `${why} (ask, or deny): not carried, so those calls ask or are denied: stricter`,
    };
  }
  if (list === "ask") {
    return {
      rules: [],
      carried: "stricter",
      note: `${why}: carried by it — every call of ${tool} (and of any other tool outside the pack) asks, or is denied with --unreadable deny: stricter`,
    };
  }
  if (!unreadableDeny) {
    return {
      rules: [],
      carried: "not-carried",
      refuse: `${why}, which is ask unless the hook runs with --unreadable deny, so this deny would be loosened. Run the hook with --unreadable deny and import with --unreadable-deny (every call of a tool outside the pack is then denied: stricter), or remove the rule`,
    };
  }
  return {
    rules: [],
    carried: "stricter",
    note: `${why}: carried by --unreadable deny (you passed --unreadable-deny: the hook must run with it) — every call of ${tool}, and of any other tool outside the pack, is denied: stricter`,
  };
}

/** `mcp__server`, `mcp__server__tool`, `mcp__server__get_*`, and tool-name globs such as `*` or `mcp__*`. */
function convertToolPattern(
  tool: string,
  spec: string | undefined,
  list: RuleList,
  unreadableDeny: boolean,
): Converted {
  if (spec !== undefined && spec.trim() !== "*") {
    return fallback(
      list,
      tool.startsWith("mcp__") ? ["MCP"] : [],
      `the specifier of ${tool} is not one toolgate reads`,
    );
  }
  if (!tool.startsWith("mcp__")) {
    // A tool-name glob: allow rules with one are skipped by Claude Code too; deny and ask cover every tool it
    // matches: the pack's tools that match, and MCP when it can match an mcp__ name.
    if (list === "allow") {
      return {
        rules: [],
        carried: "not-carried",
        note: "Claude Code skips an allow rule with an unanchored tool-name glob; not carried either",
      };
    }
    const re = new RegExp(`^${tool.split("*").map(escapeRegex).join(".*")}$`);
    const tools = PACK_TOOLS.filter((t) => t !== "MCP" && re.test(t)) as string[];
    if (re.test("mcp__x__y") || re.test("mcp__")) tools.push("MCP");
    const outside = outsidePack(`the glob ${tool}`, list, unreadableDeny);
    if (outside.refuse !== undefined) {
      return {
        ...outside,
        refuse: `a tool-name glob may match tools outside the pack: ${outside.refuse}`,
      };
    }
    return {
      rules: tools.length === 0 ? [] : whole(tools),
      carried: "stricter",
      note: `carried as a ${list} of ${tools.join(", ") || "no pack tool"}; tools outside the pack that it matches get the hook's --unreadable answer (${unreadableDeny ? "deny: you passed --unreadable-deny" : "ask, or deny"}): stricter`,
    };
  }
  const rest = tool.slice("mcp__".length);
  const split = rest.indexOf("__");
  const server = split < 0 ? rest : rest.slice(0, split);
  if (server === "" || server.includes("*")) {
    if (list === "allow") {
      return {
        rules: [],
        carried: "not-carried",
        note: "Claude Code allows MCP tool globs only after a literal mcp__SERVER__ prefix; not carried either",
      };
    }
    return {
      rules: whole(["MCP"]),
      carried: list === "deny" && tool === "mcp__*" ? "exact" : "stricter",
      note: "carried as a rule on every MCP tool",
    };
  }
  if (split < 0 || rest.slice(split + 2) === "*") {
    return {
      rules: [{ tools: ["MCP"], when: { server: { equals: server } } }],
      carried: "exact",
    };
  }
  const name = rest.slice(split + 2);
  if (!name.includes("*"))
    return { rules: [{ tools: ["MCP"], when: { name: { equals: tool } } }], carried: "exact" };
  const pattern = `^${tool.split("*").map(escapeRegex).join("[A-Za-z0-9_-]*")}$`;
  return {
    rules: [{ tools: ["MCP"], when: { server: { equals: server }, name: { regex: pattern } } }],
    carried: "exact",
  };
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}

function convertParam(tool: string, field: string, raw: string, type: string, list: RuleList): Converted {
  if (list === "allow") {
    return {
      rules: [],
      carried: "not-carried",
      note: "Claude Code reads Tool(param:value) in deny and ask rules only; not carried either",
    };
  }
  const value = raw.trim();
  if (value.includes("*")) {
    if (type === "string" && /^[^*]*(\*[^*]*)*$/.test(value)) {
      const pattern = `^${value.split("*").map(escapeRegex).join("[\\s\\S]*")}$`;
      return { rules: [{ tools: [tool], when: { [field]: { regex: pattern } } }], carried: "exact" };
    }
    return {
      rules: [{ tools: [tool], when: { [field]: { exists: true } } }],
      carried: "stricter",
      note: `carried as any ${field}: stricter`,
    };
  }
  if (type === "boolean") {
    if (value !== "true" && value !== "false")
      return fallback(list, [tool], `${field} is a boolean, not ${JSON.stringify(value)}`);
    return { rules: [{ tools: [tool], when: { [field]: { equals: value === "true" } } }], carried: "exact" };
  }
  if (type === "number") {
    const n = Number(value);
    if (value === "" || !Number.isFinite(n))
      return fallback(list, [tool], `${field} is a number, not ${JSON.stringify(value)}`);
    return { rules: [{ tools: [tool], when: { [field]: { equals: n } } }], carried: "exact" };
  }
  return { rules: [{ tools: [tool], when: { [field]: { equals: value } } }], carried: "exact" };
}

/** What every carried Bash allow differs in from Claude Code's. */
const BASH_ALLOW_NOTE =
  "allowed only where every shell reads the command alike (toolgate's safe subset: no $, globs, ~, other redirections): stricter; " +
  "compound commands (a && b, a | b, a; b): each simple command is decided on its own and the strictest decision wins, as Claude Code decides them: the same; " +
  "no redirection at all (no < or > anywhere, even quoted: stricter; not even >/dev/null or 2>&1, which toolgate's safe subset would allow), as Claude Code prompts for a command with one: the same or stricter";

/**
 * The `command` operators of a Bash rule: an allow also refuses any `<` or `>` in the command (a redirection, or
 * one quoted: stricter), since toolgate's safe subset allows `>/dev/null` and `2>&1` where Claude Code prompts.
 */
function bashCommand(prefix: string, list: RuleList): Record<string, unknown> {
  return list === "allow" ? { command: [prefix], not: { regex: "[<>]" } } : { command: [prefix] };
}

/** What every carried Bash deny or ask differs in from Claude Code's. */
const BASH_DENY_NOTE =
  "toolgate's command match for deny and ask also finds the command in every part of a compound command, behind any wrapper (timeout, env, xargs, a shell's -c) and in every shell's reading: at least as wide, so stricter";

function convertBash(spec: string, list: RuleList): Converted {
  const text = spec.trim();
  // `npm run:*` and `npm run *` are the same prefix rule (word boundary); no `*` is an exact command.
  let prefix: string | undefined;
  let exact = false;
  if (!text.includes("*")) {
    exact = true;
    prefix = text;
  } else if (/^[^*]+:\*$/.test(text)) prefix = text.slice(0, -2);
  else if (/^[^*]+ \*$/.test(text)) prefix = text.slice(0, -2);
  if (prefix !== undefined) {
    const words = prefix.trim().split(/\s+/);
    const carried = commandPrefix(words, exact);
    if (carried !== undefined) {
      return {
        rules: [{ tools: ["Bash"], when: { command: bashCommand(carried, list) } }],
        carried: "stricter",
        note: list === "allow" ? BASH_ALLOW_NOTE : BASH_DENY_NOTE,
      };
    }
  }
  // Anything else: a wildcard in the middle or at the start, a prefix without a word boundary, words with
  // quotes or shell operators. Deny and ask keep the leading plain words before any of that; allow is dropped,
  // or narrowed to the word-bounded prefix when only the boundary is missing (`ls*` as `ls *`).
  const head = text.split("*")[0] as string;
  if (list === "allow") {
    const bare = /^([^*]+)\*$/.exec(text);
    const narrowed =
      bare === null ? undefined : commandPrefix((bare[1] as string).trim().split(/\s+/), false);
    if (narrowed !== undefined && !/\s$/.test(bare?.[1] as string)) {
      return {
        rules: [{ tools: ["Bash"], when: { command: bashCommand(narrowed, list) } }],
        carried: "stricter",
        note: `carried as the word-bounded prefix "${narrowed}" (Claude Code would also allow longer first words): stricter; ${BASH_ALLOW_NOTE}`,
      };
    }
    return fallback(list, ["Bash"], "toolgate cannot allow this command pattern with certainty");
  }
  const words =
    head.endsWith(" ") || !text.includes("*")
      ? head.trim().split(/\s+/)
      : head.trim().split(/\s+/).slice(0, -1);
  const plain: string[] = [];
  for (const [i, w] of words.entries()) {
    if (w === "" || !isPlainWord(w, i === 0)) break;
    plain.push(w);
  }
  const carried = commandPrefix(plain, false);
  if (carried === undefined)
    return fallback(list, ["Bash"], "the pattern has no leading plain words toolgate can match");
  return {
    rules: [{ tools: ["Bash"], when: { command: { command: [carried] } } }],
    carried: "stricter",
    note: `carried as every command that may run "${carried}": wider, so stricter; ${BASH_DENY_NOTE}`,
  };
}

function convertDomain(spec: string, list: RuleList): Converted {
  const m = /^domain:\s*(.+)$/.exec(spec.trim());
  if (m === null) return fallback(list, ["WebFetch"], "only domain: specifiers are read for WebFetch");
  const host = (m[1] as string).trim().toLowerCase().replace(/\.$/, "");
  if (host === "*") return { rules: whole(["WebFetch"]), carried: "exact" };
  if (host.slice(host.startsWith("*.") ? 2 : 0).includes("*")) {
    return fallback(
      list,
      ["WebFetch"],
      `the domain ${JSON.stringify(host)} has a wildcard that toolgate's url operator cannot read`,
    );
  }
  if (!compileUrl({ host: [host] }).ok) {
    return fallback(
      list,
      ["WebFetch"],
      `the domain ${JSON.stringify(host)} is not a host name toolgate's url operator accepts`,
    );
  }
  return {
    rules: [{ tools: ["WebFetch"], when: { url: { url: { host: [host] } } } }],
    ...(list === "allow"
      ? {
          carried: "stricter",
          note: "allowed only for a URL spelt plainly (no userinfo, no look-alike host): stricter",
        }
      : {
          carried: "stricter",
          note: `${list === "deny" ? "denied" : "asked"} for every spelling of a URL that may reach the host (userinfo, look-alike hosts): wider, so stricter; a Bash command (curl, wget) to the host is not covered, as in Claude Code, where WebFetch rules reach the WebFetch tool only`,
        }),
  };
}

function convertPath(tool: "Read" | "Edit", spec: string, list: RuleList, anchors: Anchors): Converted {
  const globs = pathGlobs(spec, list, anchors);
  const targets = pathTargets(tool, list);
  const all = targets.flatMap((t) => t.tools);
  const links = `the hook decides a symbolic link as itself and as its target, as Claude Code checks both${list === "allow" ? " (an allow needs both)" : ""}`;
  if (!globs.ok) {
    const widened = fallback(list, all, globs.why);
    if (list === "allow") return widened;
    return {
      rules: [...widened.rules, bashFileRule(tool, mentionedNames(spec, anchors))],
      carried: "stricter",
      note: `${widened.note}; ${bashFileNote(tool, mentionedNames(spec, anchors))}`,
    };
  }
  const rules = targets.map((t) => ({ tools: t.tools, when: { [t.field]: { glob: globs.globs } } }));
  if (list === "allow") {
    return {
      rules,
      carried: globs.exact ? "exact" : "stricter",
      note: [globs.note === undefined ? undefined : `${globs.note}: stricter`, links]
        .filter((n) => n !== undefined)
        .join("; "),
    };
  }
  return {
    rules: [...rules, bashFileRule(tool, mentionedNames(spec, anchors))],
    carried: "stricter",
    note: [
      globs.note,
      tool === "Read" ? "also applied to Write, Edit, MultiEdit and NotebookEdit on the path" : undefined,
      links,
      bashFileNote(tool, mentionedNames(spec, anchors)),
    ]
      .filter((n) => n !== undefined)
      .join("; "),
  };
}

type PathGlobs =
  | { readonly ok: true; readonly globs: readonly string[]; readonly exact: boolean; readonly note?: string }
  | { readonly ok: false; readonly why: string };

/**
 * The toolgate globs for a gitignore-style path pattern (the page's "Read and Edit": `//abs`, `~/home`,
 * `/settings-anchored`, `relative`). The hook passes paths inside the project relative to it and others
 * absolute, so a pattern that can reach inside the project gets a relative glob, and one outside an absolute
 * glob (never certain for an allow: such reads ask).
 */
function pathGlobs(spec: string, list: RuleList, anchors: Anchors): PathGlobs {
  let pattern = spec.trim();
  if (pattern.startsWith("!")) return { ok: false, why: "a negated (!) pattern is not read" };
  // gitignore has no braces: toolgate's glob would read {a,b} as alternatives, so they are escaped.
  pattern = pattern.replace(/[{}]/g, "\\$&");
  let absolute: string | undefined;
  let relative: string | undefined;
  let note: string | undefined;
  let exact = true;
  if (pattern.startsWith("//")) absolute = pattern.slice(1);
  else if (pattern === "~" || pattern.startsWith("~/")) absolute = anchors.home + pattern.slice(1);
  else if (pattern.startsWith("/")) {
    if (anchors.slashRoot === anchors.project) relative = pattern.slice(1);
    else absolute = anchors.slashRoot + pattern;
  } else {
    const dotted = pattern.startsWith("./");
    const rest = dotted ? pattern.slice(2) : pattern;
    const trimmed = rest.replace(/\/+$/, "");
    const dir = rest.endsWith("/");
    const segments = trimmed.split("/");
    if (segments.length === 1 && !dir) {
      // A bare name matches at any depth (gitignore); `./name` names the one in the project directory — the
      // narrower reading for an allow, the wider for deny and ask.
      relative = dotted && list === "allow" ? trimmed : `**/${trimmed}`;
      if (dotted) {
        exact = false;
        note = list === "allow" ? `read as ${relative} only` : `read as ${relative} (any depth)`;
      }
    } else if (segments.length === 1 || (segments.length === 2 && segments[1] === "**")) {
      // One directory segment: at the top for an allow, at any depth for deny and ask (the page says so).
      const name = segments[0] as string;
      relative = list === "allow" ? `${name}/**` : `**/${name}/**`;
    } else relative = dir ? `${trimmed}/**` : trimmed;
  }
  if (absolute !== undefined) {
    absolute = absolute.replace(/\/+$/, "");
    const literal = absolute.split(/[*?[\\]/)[0] as string;
    const project = `${anchors.project}/`;
    if (absolute === anchors.project || absolute.startsWith(project)) {
      relative = absolute === anchors.project ? "**" : absolute.slice(project.length);
    } else if (project.startsWith(literal) && list !== "allow") {
      // A wildcard at or above the project directory: it may reach inside, where paths arrive relative.
      relative = absolute.startsWith("/**/") ? absolute.slice(1) : "**";
      if (relative === "**") {
        exact = false;
        note =
          "the pattern may reach into the project through a wildcard above it, so it covers every project path";
      }
    }
  }
  const globs = [absolute, relative].filter((g): g is string => g !== undefined && g !== "");
  if (list === "allow" && relative !== undefined && absolute !== undefined) globs.splice(0, 1);
  if (list !== "allow") {
    // gitignore: a pattern that names a directory covers everything under it. Deny and ask take that reading
    // too (an allow keeps the narrower one).
    for (const glob of [...globs]) if (!glob.endsWith("/**") && glob !== "**") globs.push(`${glob}/**`);
  }
  for (const glob of globs) {
    const compiled = compileGlob(glob);
    if (!compiled.ok)
      return {
        ok: false,
        why: `the path pattern reads as the glob ${JSON.stringify(glob)}, which toolgate refuses (${compiled.message})`,
      };
  }
  if (globs.length === 0) return { ok: false, why: "the path pattern is empty" };
  if (list === "allow" && relative === undefined) {
    return {
      ok: true,
      globs,
      exact: false,
      note: "a path outside the project arrives absolute and is never certain for an allow, so those reads ask",
    };
  }
  return { ok: true, globs, exact, ...(note === undefined ? {} : { note }) };
}

/** The policy file: every rule, and an `ask` fallback for each pack tool that has no unconditional rule. */
function writePolicy(
  rules: readonly RuleOut[],
  sources: readonly SettingsSource[],
  fallbackDecision: "ask" | "deny",
): string {
  const q = (v: unknown): string => JSON.stringify(v);
  const unconditional = new Set(rules.filter((r) => r.when === undefined).flatMap((r) => r.tools));
  const lines = [
    `# Imported by \`toolgate import claude-code\` from ${sources.map((s) => s.file).join(", ")}.`,
    "# Tools: the Claude Code pack (node_modules/toolgate/policies/packs/claude-code/tools.yaml).",
    `# Strictest wins (deny > ask > allow), as in Claude Code. A call no rule matches ${fallbackDecision === "ask" ? "asks" : "is denied (defaultMode dontAsk)"} (otherwise).`,
    "version: 1",
  ];
  const fallbacks = PACK_TOOLS.filter((t) => !unconditional.has(t));
  if (fallbacks.length > 0) {
    lines.push("otherwise:");
    for (const tool of fallbacks) {
      lines.push(
        fallbackDecision === "ask"
          ? `  ${tool}: { decision: ask, reason: ${q(`no imported Claude Code rule decides this ${tool} call, so a person confirms it`)} }`
          : `  ${tool}: { decision: deny, reason: ${q(`no imported Claude Code rule allows this ${tool} call, and defaultMode dontAsk denies it`)} }`,
      );
    }
  }
  if (rules.length > 0) lines.push("rules:");
  for (const rule of rules) {
    lines.push(`  - id: ${rule.id}`);
    lines.push(`    tools: [${rule.tools.join(", ")}]`);
    lines.push(`    decision: ${rule.decision}`);
    if (rule.when !== undefined) lines.push(`    when: ${q(rule.when)}`);
    lines.push(`    reason: ${q(rule.reason)}`);
  }
  return `${lines.join("\n")}\n`;
}
