/**
 * Reading Claude Code's rule syntax ("Permission rule syntax" and "Tool-specific permission rules" of
 * https://code.claude.com/docs/en/permissions): a rule's tool and specifier, a `param:value` specifier, and a
 * gitignore-style path pattern read against the project and home directories — as toolgate globs, and as the
 * names a shell command would use to reach the path.
 */
import { dirname, resolve, sep } from "node:path";
import { compileGlob } from "../../runtime/match/glob.js";
import type { RuleList } from "./converted.js";

/** A rule read as `Tool` or `Tool(specifier)`. */
export interface RuleSyntax {
  readonly tool: string;
  /** The text between the parentheses; absent for a bare tool name. */
  readonly spec?: string;
}

/** Reads a rule as `Tool` or `Tool(specifier)`; `undefined` when Claude Code cannot read it either. */
export function parseRule(rule: string): RuleSyntax | undefined {
  const match = /^([^()\s]+)(?:\(([\s\S]*)\))?$/.exec(rule.trim());
  if (match === null) return undefined;
  const tool = match[1] as string;
  const spec = match[2];
  return spec === undefined ? { tool } : { tool, spec };
}

/** Reads a `param:value` specifier (`Tool(param:value)`); `undefined` when the specifier is not one. */
export function parseParam(spec: string): { readonly name: string; readonly value: string } | undefined {
  const param = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*([\s\S]*)$/.exec(spec);
  return param === null ? undefined : { name: param[1] as string, value: param[2] as string };
}

/** The directories a rule's paths are read against. */
export interface Anchors {
  /** Absolute project directory, without a trailing slash. */
  readonly project: string;
  readonly home: string;
  /** Where a `/path` rule is anchored: the project (relative) or an absolute directory. */
  readonly slashRoot: string;
}

/**
 * The anchors of one settings file.
 * @param project the project directory (Claude Code's `cwd`); default: the directory holding `.claude/`.
 * @param home the home directory that `~/` rules expand to.
 */
export function anchorsFor(file: string, project: string | undefined, home: string): Anchors {
  const absolute = resolve(file);
  const dir = dirname(absolute);
  const inClaudeDir = dir.endsWith(`${sep}.claude`);
  const projectDir = trimSlash(resolve(project ?? (inClaudeDir ? dirname(dir) : process.cwd())));
  const homeDir = trimSlash(resolve(home));
  // Project and local settings anchor `/path` at the project; user settings at ~/.claude; any other file at
  // its own directory (the page's table "`/path` resolves to").
  const slashRoot = inClaudeDir && dirname(dir) === homeDir ? dir : inClaudeDir ? projectDir : dir;
  return { project: projectDir, home: homeDir, slashRoot: trimSlash(slashRoot) };
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

/**
 * The names a shell command may use to reach a path the pattern matches: the longest run of plain characters
 * of the last segment that has one (`./.env` → `.env`, `secrets/**` → `secrets`, `*.pem` → `.pem`), and of each
 * directory segment above it of two or more characters (`secrets/key.txt` → `key.txt`, `secrets`: a recursive
 * `grep -r x secrets` names only the directory). The part that is the project or home directory itself is left
 * out. Empty when no segment has a plain character (`**`, `*`): then every file command counts.
 */
export function mentionedNames(spec: string, anchors: Anchors): string[] {
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

/** A path pattern as toolgate globs, or why it cannot be read as any. */
export type PathGlobs =
  | { readonly ok: true; readonly globs: readonly string[]; readonly exact: boolean; readonly note?: string }
  | { readonly ok: false; readonly why: string };

/**
 * The toolgate globs for a gitignore-style path pattern (the page's "Read and Edit": `//abs`, `~/home`,
 * `/settings-anchored`, `relative`). The hook passes paths inside the project relative to it and others
 * absolute, so a pattern that can reach inside the project gets a relative glob, and one outside an absolute
 * glob (never certain for an allow: such reads ask).
 */
export function pathGlobs(spec: string, list: RuleList, anchors: Anchors): PathGlobs {
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
