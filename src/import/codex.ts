/**
 * Turns Codex rules files (`prefix_rule(...)` calls in Starlark, https://developers.openai.com/codex/rules)
 * into toolgate rules on a shell tool's command field: `allow` → allow, `prompt` → ask, `forbidden` → deny,
 * strictest wins (as in Codex: forbidden > prompt > allow). `decision` defaults to `allow`, as Codex's does.
 *
 * Only the documented subset is read: comments, and calls with keyword arguments whose values are strings,
 * lists of strings and lists of such lists. Anything else is refused with its line and column.
 */

import { ToolgateError } from "../runtime/errors.js";
import { commandPrefix, isPlainWord } from "./command-prefix.js";

/** What happened to one `prefix_rule`. */
export interface CodexFinding {
  readonly file: string;
  readonly line: number;
  readonly rule: string;
  readonly decision: "allow" | "ask" | "deny";
  readonly carried: "exact" | "stricter" | "not-carried";
  readonly note?: string;
  readonly ids: readonly string[];
}

/** Options: the toolgate tool and string field that hold the shell command. */
export interface CodexImportOptions {
  readonly tool: string;
  readonly field: string;
}

/** The result of an import. */
export type CodexImport =
  | { readonly ok: true; readonly yaml: string; readonly findings: readonly CodexFinding[] }
  | { readonly ok: false; readonly message: string };

type Value = string | readonly Value[] | { readonly ident: string };

interface Token {
  readonly kind: "ident" | "string" | "punct";
  readonly text: string;
  readonly line: number;
  readonly column: number;
}

class RulesSyntaxError extends ToolgateError {
  constructor(message: string) {
    super("invalid-rules", message);
  }
}

function tokenize(text: string, file: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw new RulesSyntaxError(`${file}:${line}:${at - lineStart + 1}: ${message}`);
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "\n") {
      line += 1;
      i += 1;
      lineStart = i;
    } else if (c === " " || c === "\t" || c === "\r") i += 1;
    else if (c === "#") {
      while (i < text.length && text[i] !== "\n") i += 1;
    } else if ("()[],=".includes(c)) {
      tokens.push({ kind: "punct", text: c, line, column: i - lineStart + 1 });
      i += 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const start = i;
      while (i < text.length && /[A-Za-z0-9_]/.test(text[i] as string)) i += 1;
      tokens.push({ kind: "ident", text: text.slice(start, i), line, column: start - lineStart + 1 });
    } else if (c === '"' || c === "'") {
      const start = i;
      const triple = text.startsWith(c.repeat(3), i);
      const close = triple ? c.repeat(3) : c;
      i += close.length;
      let value = "";
      for (;;) {
        if (i >= text.length) fail("unterminated string", start);
        if (text.startsWith(close, i)) {
          i += close.length;
          break;
        }
        const d = text[i] as string;
        if (d === "\n") {
          if (!triple) fail("a string ends at the end of the line", start);
          line += 1;
          lineStart = i + 1;
        }
        if (d === "\\") {
          const e = text[i + 1];
          const escapes: Record<string, string> = { n: "\n", t: "\t", "\\": "\\", '"': '"', "'": "'" };
          if (e === undefined || !(e in escapes))
            fail(`the escape \\${e ?? ""} is not read; write the character itself`);
          value += escapes[e as string];
          i += 2;
          continue;
        }
        value += d;
        i += 1;
      }
      tokens.push({ kind: "string", text: value, line, column: start - lineStart + 1 });
    } else fail(`unexpected character ${JSON.stringify(c)}`);
  }
  return tokens;
}

interface Call {
  readonly name: string;
  readonly line: number;
  readonly column: number;
  readonly args: ReadonlyMap<string, Value>;
}

function parseRules(text: string, file: string): Call[] {
  const tokens = tokenize(text, file);
  let p = 0;
  const at = (t: Token | undefined) =>
    t === undefined ? `${file}: at the end` : `${file}:${t.line}:${t.column}`;
  const expect = (punct: string): Token => {
    const t = tokens[p];
    if (t?.kind !== "punct" || t.text !== punct) {
      throw new RulesSyntaxError(
        `${at(t)}: expected "${punct}"${t === undefined ? "" : `, found ${JSON.stringify(t.text)}`}`,
      );
    }
    p += 1;
    return t;
  };
  const value = (depth: number): Value => {
    const t = tokens[p];
    if (t === undefined) throw new RulesSyntaxError(`${at(t)}: expected a value`);
    if (t.kind === "string") {
      p += 1;
      return t.text;
    }
    if (t.kind === "ident") {
      p += 1;
      return { ident: t.text };
    }
    if (t.text === "[" && depth < 8) {
      p += 1;
      const items: Value[] = [];
      while (tokens[p]?.text !== "]") {
        items.push(value(depth + 1));
        if (tokens[p]?.text === ",") p += 1;
        else break;
      }
      expect("]");
      return items;
    }
    throw new RulesSyntaxError(`${at(t)}: expected a string or a list, found ${JSON.stringify(t.text)}`);
  };
  const calls: Call[] = [];
  while (p < tokens.length) {
    const name = tokens[p] as Token;
    if (name.kind !== "ident")
      throw new RulesSyntaxError(`${at(name)}: expected a call such as prefix_rule(...)`);
    p += 1;
    expect("(");
    const args = new Map<string, Value>();
    while (tokens[p]?.text !== ")") {
      const key = tokens[p];
      if (key?.kind !== "ident" || tokens[p + 1]?.text !== "=") {
        throw new RulesSyntaxError(`${at(key)}: expected a keyword argument (name = value)`);
      }
      p += 2;
      if (args.has(key.text))
        throw new RulesSyntaxError(`${at(key)}: the argument ${key.text} is given twice`);
      args.set(key.text, value(0));
      if (tokens[p]?.text === ",") p += 1;
      else break;
    }
    expect(")");
    calls.push({ name: name.text, line: name.line, column: name.column, args });
  }
  return calls;
}

const DECISIONS = { allow: "allow", prompt: "ask", forbidden: "deny" } as const;

/** Most prefixes one pattern may expand to through its alternatives. */
const MAX_PREFIXES = 256;

/** Converts Codex rules files into one toolgate policy. */
export function importCodexRules(
  sources: readonly { readonly file: string; readonly text: string }[],
  options: CodexImportOptions,
): CodexImport {
  const findings: CodexFinding[] = [];
  const rules: string[] = [];
  let count = 0;
  for (const source of sources) {
    let calls: Call[];
    try {
      calls = parseRules(source.text, source.file);
    } catch (error) {
      if (error instanceof RulesSyntaxError) return { ok: false, message: error.message };
      throw error;
    }
    for (const call of calls) {
      const where = `${source.file}:${call.line}:${call.column}`;
      if (call.name !== "prefix_rule" && call.name !== "host_executable") {
        // A call this import does not know may be a rule that forbids or prompts: refused, never dropped.
        return {
          ok: false,
          message: `${where}: ${call.name}(…) is not a call this import reads (prefix_rule, host_executable); refused rather than dropped, since it may forbid or prompt`,
        };
      }
      if (call.name !== "prefix_rule") {
        findings.push({
          file: source.file,
          line: call.line,
          rule: `${call.name}(…)`,
          decision: "allow",
          carried: "not-carried",
          note: `${call.name} says where Codex finds a program, not what it may run; not carried`,
          ids: [],
        });
        continue;
      }
      for (const key of call.args.keys()) {
        if (!["pattern", "decision", "justification", "match", "not_match"].includes(key)) {
          return { ok: false, message: `${where}: prefix_rule has no argument "${key}"` };
        }
      }
      const rawDecision = call.args.get("decision") ?? "allow";
      if (typeof rawDecision !== "string" || !(rawDecision in DECISIONS)) {
        return { ok: false, message: `${where}: decision must be "allow", "prompt" or "forbidden"` };
      }
      const decision = DECISIONS[rawDecision as keyof typeof DECISIONS];
      const pattern = call.args.get("pattern");
      if (!Array.isArray(pattern) || pattern.length === 0) {
        return { ok: false, message: `${where}: pattern must be a non-empty list of tokens` };
      }
      const tokens: string[][] = [];
      for (const item of pattern as readonly Value[]) {
        const alts = typeof item === "string" ? [item] : Array.isArray(item) ? item : undefined;
        if (alts === undefined || alts.length === 0 || alts.some((a) => typeof a !== "string")) {
          return {
            ok: false,
            message: `${where}: each pattern token is a string or a non-empty list of strings`,
          };
        }
        tokens.push(alts as string[]);
      }
      const justification = call.args.get("justification");
      const text = `prefix_rule(pattern=${JSON.stringify(tokens.map((t) => (t.length === 1 ? t[0] : t)))}, decision="${rawDecision}")`;
      const reason =
        typeof justification === "string" && justification.trim() !== ""
          ? justification
          : `Codex rule ${text} (${source.file})`;
      count += 1;
      const id = `codex-${decision}-${count}`;
      // The prefixes the pattern stands for: one per choice of alternatives, as long as every token is a plain word.
      let prefixes: string[][] = [[]];
      let plainLength = 0;
      for (const alts of tokens) {
        if (
          !alts.every((a) => isPlainWord(a, plainLength === 0)) ||
          prefixes.length * alts.length > MAX_PREFIXES
        )
          break;
        prefixes = prefixes.flatMap((p) => alts.map((a) => [...p, a]));
        plainLength += 1;
      }
      const base = { file: source.file, line: call.line, rule: text, decision, ids: [id] };
      const complete = plainLength === tokens.length;
      if (decision === "allow") {
        // An allow keeps only the prefixes toolgate can read whole; a rule it cannot read at all is dropped.
        const words = complete
          ? prefixes.map((p) => commandPrefix(p, false)).filter((w): w is string => w !== undefined)
          : [];
        if (words.length === 0) {
          findings.push({
            ...base,
            ids: [],
            carried: "not-carried",
            note: "a token is not a plain word toolgate's command operator reads (or the alternatives are too many); not carried, so those commands fall to the fallback (ask): stricter",
          });
          continue;
        }
        rules.push(ruleYaml(id, options, decision, words, reason, true));
        findings.push({
          ...base,
          carried: "stricter",
          note: [
            words.length < prefixes.length
              ? "some alternatives are not prefixes toolgate reads and are left out: stricter"
              : undefined,
            CODEX_ALLOW_NOTE,
          ]
            .filter((n) => n !== undefined)
            .join("; "),
        });
        continue;
      }
      // forbidden and prompt are always carried: each prefix cut to its longest leading words toolgate reads
      // (wider), and a rule whose first word it cannot read becomes a rule on every call (wider still).
      const cut = prefixes.map((p) => {
        for (let k = p.length; k > 0; k -= 1) {
          const w = commandPrefix(p.slice(0, k), false);
          if (w !== undefined) return { words: w, whole: k === p.length };
        }
        return undefined;
      });
      if (cut.some((c) => c === undefined) || plainLength === 0) {
        rules.push(ruleYaml(id, options, decision, undefined, reason, false));
        findings.push({
          ...base,
          carried: "stricter",
          note: `the first token is not a plain word toolgate's command operator reads; carried as a ${decision} of every ${options.tool} call: stricter`,
        });
        continue;
      }
      const words = cut.map((c) => (c as { words: string }).words);
      rules.push(ruleYaml(id, options, decision, words, reason, false));
      const shortened = !complete || cut.some((c) => c?.whole === false);
      findings.push({
        ...base,
        carried: "stricter",
        note: shortened
          ? `carried on its leading plain tokens only: wider, so stricter; ${CODEX_DENY_NOTE}`
          : CODEX_DENY_NOTE,
      });
    }
  }
  const yaml = [
    `# Imported by \`toolgate import codex\` from ${sources.map((s) => s.file).join(", ")}.`,
    `# Codex's forbidden, prompt and allow become deny, ask and allow on ${options.tool}.${options.field}; strictest wins.`,
    "version: 1",
    "otherwise:",
    `  ${options.tool}: { decision: ask, reason: ${JSON.stringify("no imported Codex rule decides this command, so a person confirms it")} }`,
    ...(rules.length > 0 ? ["rules:", ...rules] : []),
  ].join("\n");
  return { ok: true, yaml: `${yaml}\n`, findings };
}

/** What every carried allow differs in from Codex's. */
const CODEX_ALLOW_NOTE =
  "allowed only where every shell reads the command alike (toolgate's safe subset): stricter; no redirection at all (no < or > anywhere, even quoted: stricter; not even >/dev/null or 2>&1, which toolgate's safe subset would allow), as Codex prompts for a command with one: the same; compound commands (a && b, a | b, a; b): each simple command is decided on its own and the strictest decision wins, as Codex decides them: the same";

/** What every carried forbidden or prompt rule differs in from Codex's. */
const CODEX_DENY_NOTE =
  "toolgate's command match also finds the prefix behind wrappers, in every simple command and in every shell's reading: wider, so stricter";

function ruleYaml(
  id: string,
  options: CodexImportOptions,
  decision: string,
  prefixes: readonly string[] | undefined,
  reason: string,
  noRedirection: boolean,
): string {
  const lines = [`  - id: ${id}`, `    tools: [${options.tool}]`, `    decision: ${decision}`];
  if (prefixes !== undefined) {
    // An allow also refuses any `<` or `>` in the command (a redirection, or one quoted: stricter): toolgate's
    // safe subset allows `>/dev/null` and `2>&1`, where Codex prompts.
    const command: Record<string, unknown> = { command: [...new Set(prefixes)] };
    if (noRedirection) command.not = { regex: "[<>]" };
    lines.push(`    when: ${JSON.stringify({ [options.field]: command })}`);
  }
  lines.push(`    reason: ${JSON.stringify(reason)}`);
  return lines.join("\n");
}
