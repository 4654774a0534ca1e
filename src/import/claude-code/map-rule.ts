/**
 * Mapping one Claude Code rule onto the pack: the dispatch by tool, and the rules that need no more than
 * their tool's name, a tool-name or MCP pattern, a `param:value`, a WebFetch domain or an agent name. Path
 * rules are mapped in `map-paths.ts`, Bash rules in `map-bash.ts`.
 */
import { compileUrl } from "../../runtime/match/url.js";
import { type Converted, fallback, type RuleList, whole } from "./converted.js";
import { convertBash } from "./map-bash.js";
import { bareTargets, bashFileNote, bashFileRule, convertPath } from "./map-paths.js";
import { PACK_TOOLS, PARAM_FIELDS } from "./pack.js";
import { type Anchors, parseParam, parseRule, pathGlobs } from "./rule-syntax.js";

/**
 * Converts one rule of a list into toolgate rules over the pack, with how exactly it was carried.
 * @param unreadableDeny the hook runs with `--unreadable deny` (see `ClaudeCodeImportOptions`).
 */
export function convertRule(
  rule: string,
  list: RuleList,
  anchors: Anchors,
  unreadableDeny: boolean,
): Converted {
  const syntax = parseRule(rule);
  if (syntax === undefined) {
    return {
      rules: [],
      carried: "not-carried",
      note: "not a rule Claude Code can read (Tool or Tool(specifier)); Claude Code ignores it too",
    };
  }
  const { tool, spec } = syntax;
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
  const param = parseParam(spec);
  const fields = PARAM_FIELDS[tool] ?? {};
  if (param !== undefined && list !== "allow" && Object.hasOwn(fields, param.name)) {
    const byParam = convertParam(tool, param.name, param.value, fields[param.name] as string, list);
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
