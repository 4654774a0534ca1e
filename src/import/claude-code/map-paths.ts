/**
 * Mapping Claude Code's `Read(…)` and `Edit(…)` rules: which pack tools and fields a path rule reaches, per
 * list, and, for a deny or ask, the `Bash` rule that carries it to the shell's file commands.
 */
import { type Converted, fallback, type RuleList } from "./converted.js";
import { fileCommands } from "./file-commands.js";
import { type Anchors, mentionedNames, pathGlobs } from "./rule-syntax.js";

/**
 * The `Bash` rule that carries a `Read(…)`/`Edit(…)` deny or ask to the shell: any of the file commands whose
 * command string mentions one of the names, ignoring case and quotes spliced into it (`'.e'nv`). A command
 * outside the safe shell subset is never allowed anyway, so within it a name must appear, letter by letter, for
 * the command to reach the path by that name.
 */
export function bashFileRule(tool: "Read" | "Edit", names: readonly string[]): Converted["rules"][number] {
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
export function bashFileNote(tool: "Read" | "Edit", names: readonly string[]): string {
  return `also carried to Bash: ${tool === "Read" ? "any file-reading or file-writing command (cat, head, grep, sed, cp, …" : "any file-writing command (tee, cp, mv, rm, sed, …"} — the lists in src/import/claude-code/file-commands.ts)${names.length === 0 ? "" : ` whose command line mentions ${names.map((n) => JSON.stringify(n)).join(" or ")} anywhere (any case, quotes spliced in)`}, wider than the path itself: stricter. Not caught, and so possibly looser than Claude Code: a command that reaches the path without naming it — a symbolic link under another name (the hook follows links for the file tools, not inside a command line), a recursive read of a directory above it that it does not name (grep -r x .), a program outside the list such as python -c`;
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
export function bareTargets(tool: string, list: RuleList): readonly string[] {
  if (list === "allow") return [tool];
  if (tool === "Read") return ["Read", "Glob", "Grep"];
  if (tool === "Edit") return ["Edit", "Write", "MultiEdit", "NotebookEdit"];
  return [tool];
}

/** Converts a `Read(path)` or `Edit(path)` rule. */
export function convertPath(
  tool: "Read" | "Edit",
  spec: string,
  list: RuleList,
  anchors: Anchors,
): Converted {
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
