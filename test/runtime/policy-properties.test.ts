/**
 * Properties of the policy semantics (DESIGN.md section 4), stated in words: strictest wins with default deny,
 * adding or removing statements moves decisions only in the stated direction, matching is conservative
 * (uncertainty never loosens), a compound command is allowed only when each of its commands is, and `decide`
 * is deterministic, side-effect free and independent of statement order.
 *
 * Policies are drawn from three tools with realistic schemas and rules over every operator, with values from
 * small vocabularies (so that matches happen) that include bypass-shaped arguments.
 */
import fc from "fast-check";
import {
  type ConditionSpec,
  type JsonValue,
  type OperatorSpec,
  type PolicyAction,
  type PolicyDecision,
  type StatementEvaluation,
  type StatementSpec,
  type ToolCall,
  type ToolContext,
  ToolPolicy,
} from "toolgate/runtime";
import { describe, expect, it } from "vitest";
import { readSafeSubset } from "../../src/runtime/match/shell.js";

const NUM_RUNS = 1000;
const RANK: Readonly<Record<PolicyAction, number>> = { allow: 0, ask: 1, deny: 2 };
const ACTIONS: readonly PolicyAction[] = ["allow", "ask", "deny"];

// ---------------------------------------------------------------------------------------------------------
// Vocabulary: tools `read_file` { path: string }, `run_shell` { command: string },
// `tag_items` { count: integer, tags: string[] }; context { env: string }.

const TOOLS = ["read_file", "run_shell", "tag_items"] as const;
type ToolName = (typeof TOOLS)[number];

/** Paths, many of them bypass-shaped: dot-dot, repeated slashes, climbing out, case, NUL, shell text. */
const PATHS = [
  ".env",
  ".ENV",
  "./a/../.env",
  "a/.env.local",
  "a//b",
  "a/b",
  "a/./b",
  "../x",
  "src/index.ts",
  "./src/index.ts",
  "src//index.ts",
  "src/../.env",
  "src/a/../../../etc/passwd",
  "SRC/index.ts",
  "src/",
  "src",
  "docs/readme.md",
  "secrets/key.pem",
  "/etc/passwd",
  "/../etc/passwd",
  ".",
  "",
  "~/.ssh/id_rsa",
  "a\\b",
  "x\u0000y",
  "'src/index.ts'",
  "src/index.ts; rm -rf /",
  "src/9.ts",
  "a\tb",
  "src\n.env",
  "C:\\x\\.env",
  ".env.",
  "GIT~1/config",
] as const;
const SEGMENTS = ["a", "src", "docs", "..", ".", "", ".env", "index.ts", "secrets", "b.md"] as const;
const GLOBS = [
  "**/.env*",
  "src/**",
  "src/*.ts",
  "**/*.ts",
  "*.md",
  "docs/**",
  "/etc/**",
  "**",
  "{src,docs}/**",
  "a/b",
  "secrets/*",
  "**/.ENV",
  "[a-s]*/**",
  "**/index.ts",
] as const;
const PREFIXES = ["src/", "src", "/etc", ".env", "docs/", "a/", "..", "git ", "rm"] as const;
const REGEXES = [
  "^src/",
  "\\.env",
  "\\.ts$",
  "^/",
  "^[a-z./]+$",
  "rm\\s+-rf",
  "^git( |$)",
  "[;&|`$]",
  "^\\.\\./",
  "(?:^|/)\\.env",
  "^[a-z/]+\\.ts$",
  "\\d",
  "^\\S+$",
  "\\s",
  "^(ls|pwd)$",
] as const;
const COMMAND_PREFIXES = [
  "git status",
  "git",
  "git push",
  "npm test",
  "ls",
  "echo",
  "rm",
  "rm -rf",
  "cat",
  "sh",
] as const;

/**
 * Simple commands, each on its own a single simple command (no substitution, no comment), with bypass
 * shapes: quoting, escapes, paths to the binary, wrappers, assignments, redirections, expansions, globs.
 */
const SIMPLE_COMMANDS = [
  "git status",
  "git status --short",
  "git statusx",
  "git push",
  "git -C x push",
  "npm test",
  "npm run test",
  "ls",
  "ls -la",
  "echo hi",
  "rm -rf /",
  "cat .env",
  "/bin/rm -rf /",
  "./rm x",
  "sudo rm -rf /",
  "env git status",
  '"git" status',
  "'git' 'status'",
  "g\\it status",
  "git status > out.txt",
  "git status 2>&1",
  "git status >/dev/null",
  "FOO=1 git status",
  "$X status",
  "git $Y",
  "bash -c 'rm -rf /'",
  "sh",
  "xargs rm",
  "time git status",
  "echo {rm,-rf,/}",
  "~/bin/git status",
  "git st*",
  'echo "a; rm -rf /"',
  "echo 'x && y'",
] as const;
/** Whole command strings beyond compounds: substitutions, comments. */
const OTHER_COMMANDS = [
  "echo `rm -rf /`",
  "echo $(rm -rf /)",
  "$(rm -rf /)",
  "git status # ; rm -rf /",
  "git status; rm -rf /",
  "git status && rm -rf /",
  "git status | sh",
  "git status\nrm -rf /",
  'echo "$(git push)"',
] as const;
/** Command strings the parser refuses: unterminated quotes, compound syntax, here-documents, ... */
const UNPARSEABLE_COMMANDS = [
  'git status "',
  "echo 'x",
  "if true; then git status; fi",
  "for f in a; do git status; done",
  "while true; do ls; done",
  "case x in a) ls;; esac",
  "cat <<EOF\nx\nEOF",
  "git status $(",
  "echo `git status",
  "f() { git status; }",
  "(( x = 1 ))",
  "git status )",
  "{ git status",
  "git status &&",
  "| git status",
  "",
  "echo ${x",
  "git status; (ls",
  "! git status",
  "[[ -f x ]]",
] as const;
const JOINERS = ["; ", ";", " && ", "&&", " || ", " | ", "|", " & ", "\n", " |& "] as const;
const SUBSTITUTION_HOSTS = ["echo", "git status", "ls", "cat"] as const;

const TAGS = ["a", "b", ".env", "prod", "../x", "x y", ""] as const;
const COUNTS = [0, 1, 3, 5, 10, -1, 2.5] as const;

// ---------------------------------------------------------------------------------------------------------
// Arbitraries: values

const pathArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PATHS),
  fc
    .tuple(fc.boolean(), fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 5 }))
    .map(([absolute, segments]) => `${absolute ? "/" : ""}${segments.join("/")}`),
);

/** A command built from simple commands, with the simple commands it is made of. */
interface Compound {
  readonly text: string;
  readonly parts: readonly string[];
}

/** `((` and `$((` open arithmetic, which the parser refuses: nested parentheses are written `( (`. */
function opening(inner: string): string {
  return inner.startsWith("(") ? ` ${inner}` : inner;
}

const compoundArb: fc.Arbitrary<Compound> = fc.letrec<{ node: Compound }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...SIMPLE_COMMANDS).map((text) => ({ text, parts: [text] })),
    fc
      .tuple(tie("node"), fc.constantFrom(...JOINERS), tie("node"))
      .map(([a, joiner, b]) => ({ text: `${a.text}${joiner}${b.text}`, parts: [...a.parts, ...b.parts] })),
    fc
      .tuple(tie("node"), fc.constantFrom("( ", "("), fc.constantFrom(" )", ")"))
      .map(([a, open, close]) => ({ text: `${open}${opening(a.text)}${close}`, parts: a.parts })),
    tie("node").map((a) => ({ text: `{ ${a.text}; }`, parts: a.parts })),
    fc
      .tuple(fc.constantFrom(...SUBSTITUTION_HOSTS), fc.constantFrom("$(", '"$(', "<(", "$( "), tie("node"))
      .map(([host, open, a]) => {
        const close = open.startsWith('"') ? ')"' : open.endsWith(" ") ? " )" : ")";
        return { text: `${host} ${open}${opening(a.text)}${close}`, parts: [host, ...a.parts] };
      }),
  ),
})).node;

const unparseableArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...UNPARSEABLE_COMMANDS),
  fc
    .tuple(compoundArb, fc.constantFrom(...JOINERS), fc.constantFrom(...UNPARSEABLE_COMMANDS), fc.boolean())
    .filter(([, , bad]) => bad !== "" && !bad.startsWith("|") && !bad.endsWith("&&"))
    .map(([good, joiner, bad, badFirst]) =>
      badFirst ? `${bad}${joiner}${good.text}` : `${good.text}${joiner}${bad}`,
    ),
);

const commandArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SIMPLE_COMMANDS),
  fc.constantFrom(...OTHER_COMMANDS),
  compoundArb.map((c) => c.text),
  unparseableArb,
);

const countArb: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...COUNTS), weight: 5 },
  { arbitrary: fc.integer({ min: -3, max: 12 }), weight: 3 },
  { arbitrary: fc.constantFrom<unknown>("3", null, [3]), weight: 1 },
);
const tagsArb: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.array(fc.constantFrom(...TAGS), { maxLength: 4 }), weight: 6 },
  { arbitrary: fc.constantFrom<unknown>("a", null, [1, "a"], [["a"]]), weight: 1 },
);

/** Arguments of each tool: mostly schema-shaped, sometimes missing or mistyped (decide must still answer). */
const argumentsArb: Readonly<Record<ToolName, fc.Arbitrary<unknown>>> = {
  read_file: fc.oneof(
    { arbitrary: fc.record({ path: pathArb }), weight: 8 },
    { arbitrary: fc.constantFrom<unknown>({}, { path: 42 }, { path: null }, { path: ["a"] }), weight: 1 },
  ),
  run_shell: fc.oneof(
    { arbitrary: fc.record({ command: commandArb }), weight: 8 },
    { arbitrary: fc.constantFrom<unknown>({}, { command: 7 }, { command: ["git", "status"] }), weight: 1 },
  ),
  tag_items: fc.record({ count: countArb, tags: tagsArb }, { requiredKeys: [] }),
};

const contextArb: fc.Arbitrary<ToolContext> = fc.record(
  { env: fc.constantFrom<unknown>("prod", "dev", "", 1) },
  { requiredKeys: [] },
);

interface Probe {
  readonly call: ToolCall;
  readonly context: ToolContext;
}

function probeArbFor(tool: ToolName): fc.Arbitrary<Probe> {
  return fc.tuple(argumentsArb[tool], contextArb).map(([args, context]) => ({
    call: { callId: "call_1", toolName: tool, arguments: args },
    context,
  }));
}

const probeArb: fc.Arbitrary<Probe> = fc.oneof(
  ...TOOLS.map((tool) => ({ arbitrary: probeArbFor(tool), weight: 6 })),
  {
    arbitrary: contextArb.map((context) => ({
      call: { callId: "call_1", toolName: "unknown_tool", arguments: {} },
      context,
    })),
    weight: 1,
  },
);

// ---------------------------------------------------------------------------------------------------------
// Arbitraries: conditions over every operator

type FieldKind = "path" | "command" | "count" | "tags" | "tag" | "env";

const valuesOf: Readonly<Record<FieldKind, fc.Arbitrary<JsonValue>>> = {
  path: fc.constantFrom(...PATHS),
  command: fc.constantFrom<JsonValue>(...SIMPLE_COMMANDS, ...OTHER_COMMANDS),
  count: fc.constantFrom<JsonValue>(...COUNTS, "3"),
  tags: fc.constantFrom<JsonValue>(["a"], [], ["a", "b"], "a"),
  tag: fc.constantFrom<JsonValue>(...TAGS),
  env: fc.constantFrom<JsonValue>("prod", "dev", 1),
};

/** One operator that fits a field of this kind (`not`, `any` and `all` nest down to `depth` 0). */
function singleOperatorArb(kind: FieldKind, depth: number): fc.Arbitrary<OperatorSpec> {
  const values = valuesOf[kind];
  const options: fc.Arbitrary<OperatorSpec>[] = [
    values.map((equals) => ({ equals })),
    fc.array(values, { minLength: 1, maxLength: 3 }).map((list) => ({ in: list })),
    fc.boolean().map((exists) => ({ exists })),
  ];
  if (kind === "path" || kind === "command" || kind === "tag") {
    options.push(
      fc.constantFrom(...PREFIXES).map((prefix) => ({ prefix })),
      fc.constantFrom(...PREFIXES).map((path_prefix) => ({ path_prefix })),
      fc
        .oneof(fc.constantFrom(...GLOBS), fc.array(fc.constantFrom(...GLOBS), { minLength: 1, maxLength: 3 }))
        .map((glob) => ({ glob })),
      fc.constantFrom(...REGEXES).map((regex) => ({ regex })),
    );
  }
  if (kind === "command") {
    options.push(
      fc
        .array(fc.constantFrom(...COMMAND_PREFIXES), { minLength: 1, maxLength: 3 })
        .map((command) => ({ command })),
    );
  }
  if (kind === "count") {
    options.push(
      fc.constantFrom(-1, 0, 1, 3, 5, 2.5).map((min) => ({ min })),
      fc.constantFrom(-1, 0, 1, 3, 5, 2.5).map((max) => ({ max })),
    );
  }
  if (depth > 0) {
    options.push(operatorSpecArb(kind, depth - 1).map((not) => ({ not })));
    if (kind === "tags") {
      options.push(
        operatorSpecArb("tag", depth - 1).map((any) => ({ any })),
        operatorSpecArb("tag", depth - 1).map((all) => ({ all })),
      );
    }
  }
  return fc.oneof(...options);
}

const operatorSpecArbs = new Map<string, fc.Arbitrary<OperatorSpec>>();

/** The operators of one field: mostly one, sometimes two (several must all hold). Built once per kind and depth. */
function operatorSpecArb(kind: FieldKind, depth = 2): fc.Arbitrary<OperatorSpec> {
  const key = `${kind}:${depth}`;
  let arb = operatorSpecArbs.get(key);
  if (arb === undefined) {
    arb = buildOperatorSpecArb(kind, depth);
    operatorSpecArbs.set(key, arb);
  }
  return arb;
}

function buildOperatorSpecArb(kind: FieldKind, depth: number): fc.Arbitrary<OperatorSpec> {
  return fc.oneof(
    { arbitrary: singleOperatorArb(kind, depth), weight: 3 },
    {
      arbitrary: fc
        .tuple(singleOperatorArb(kind, depth), singleOperatorArb(kind, depth))
        .map(([a, b]) => ({ ...a, ...b })),
      weight: 1,
    },
  );
}

const FIELDS: Readonly<Record<ToolName, readonly (readonly [string, FieldKind])[]>> = {
  read_file: [["path", "path"]],
  run_shell: [["command", "command"]],
  tag_items: [
    ["count", "count"],
    ["tags", "tags"],
  ],
};

function whenArbFor(tool: ToolName): fc.Arbitrary<ConditionSpec> {
  const fields = FIELDS[tool];
  return fc
    .subarray([...fields], { minLength: 1 })
    .chain((chosen) =>
      fc.tuple(...chosen.map(([name, kind]) => operatorSpecArb(kind).map((spec) => [name, spec] as const))),
    )
    .map((entries) => Object.fromEntries(entries) as ConditionSpec);
}

const contextConditionArb: fc.Arbitrary<ConditionSpec> = operatorSpecArb("env", 1).map((env) => ({ env }));

/** A statement before it gets its id and reason. */
type DraftStatement = Omit<StatementSpec, "id" | "reason">;

function ruleArbFor(tool: ToolName, action: fc.Arbitrary<PolicyAction>): fc.Arbitrary<DraftStatement> {
  return fc
    .record(
      { action, when: whenArbFor(tool), context: contextConditionArb },
      { requiredKeys: ["action", "when"] },
    )
    .map((r) => ({ kind: "rule" as const, tools: [tool], ...r }));
}

function statementArbOf(action: fc.Arbitrary<PolicyAction>): fc.Arbitrary<DraftStatement> {
  return fc.oneof(
    {
      arbitrary: fc
        .record({ action, tool: fc.constantFrom(...TOOLS) })
        .map(({ action: a, tool }) => ({ kind: "set" as const, action: a, tools: [tool] })),
      weight: 6,
    },
    ...TOOLS.map((tool) => ({ arbitrary: ruleArbFor(tool, action), weight: 4 })),
    {
      // A rule over several tools with only a context condition (or none).
      arbitrary: fc
        .record(
          { action, tools: fc.subarray([...TOOLS], { minLength: 1 }), context: contextConditionArb },
          { requiredKeys: ["action", "tools"] },
        )
        .map((r) => ({ kind: "rule" as const, ...r })),
      weight: 1,
    },
  );
}

const anyActionArb = fc.constantFrom(...ACTIONS);
const statementArb = statementArbOf(anyActionArb);

/** Gives each statement a unique id; reasons repeat sometimes, so that the decision's reason deduplicates. */
function finish(drafts: readonly DraftStatement[], prefix = "s"): StatementSpec[] {
  return drafts.map((draft, i) => ({
    ...draft,
    id: `${prefix}${i}`,
    reason: i % 3 === 2 ? "shared reason" : `reason of ${prefix}${i}`,
  }));
}

const statementsArb: fc.Arbitrary<StatementSpec[]> = fc
  .array(statementArb, { maxLength: 8 })
  .map((drafts) => finish(drafts));

/** Statements and a call, mostly of a tool the statements name (so that statements match often). */
const policyCaseArb: fc.Arbitrary<readonly [StatementSpec[], Probe]> = statementsArb.chain((statements) => {
  const named = TOOLS.filter((tool) => statements.some((s) => s.tools.includes(tool)));
  const probe =
    named.length === 0
      ? probeArb
      : fc.oneof(
          { arbitrary: fc.constantFrom(...named).chain(probeArbFor), weight: 4 },
          { arbitrary: probeArb, weight: 1 },
        );
  return fc.tuple(fc.constant(statements), probe);
});

/** A policy case plus one more statement with the given action, often on the called tool, and where to put it. */
function withExtraArb(action: PolicyAction) {
  return policyCaseArb.chain(([statements, probe]) => {
    const tool = probe.call.toolName;
    const onTool = (TOOLS as readonly string[]).includes(tool)
      ? [
          fc.constant<DraftStatement>({ kind: "set", action, tools: [tool] }),
          ruleArbFor(tool as ToolName, fc.constant(action)),
        ]
      : [];
    return fc.record({
      statements: fc.constant(statements),
      probe: fc.constant(probe),
      extra: fc.oneof(statementArbOf(fc.constant(action)), ...onTool),
      at: fc.nat({ max: statements.length }),
    });
  });
}

/** The statements with the extra one inserted at `at`. */
function inserted(statements: readonly StatementSpec[], extra: DraftStatement, at: number): StatementSpec[] {
  const result = [...statements];
  result.splice(at, 0, { ...extra, id: "extra", reason: "extra" });
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

/** The decision is the strictest matched statement's, or the default deny, with exactly the winners. */
function strictestMatched(decision: PolicyDecision, evaluations: readonly StatementEvaluation[]): void {
  // An allow statement matches only with certainty.
  for (const e of evaluations) {
    expect(e.matched).toBe(e.match !== "no");
    if (e.statement.action === "allow") expect(e.match).not.toBe("possible");
  }
  expect(decision.reason.trim()).not.toBe("");
  const matched = evaluations.filter((e) => e.matched);
  if (matched.length === 0) {
    expect(decision.action).toBe("deny");
    expect(decision.ruleIds).toEqual([]);
    expect(decision.statements).toEqual([]);
    expect(decision.reason).toContain("default deny");
    return;
  }
  const strictest = Math.max(...matched.map((e) => RANK[e.statement.action]));
  expect(RANK[decision.action]).toBe(strictest);
  const winners = matched.filter((e) => e.statement.action === decision.action);
  expect(decision.ruleIds).toEqual(winners.map((e) => e.statement.id));
  expect(decision.statements.map((s) => s.id)).toEqual(decision.ruleIds);
  expect(reasonParts(decision)).toEqual(new Set(winners.map((e) => e.statement.reason)));
}

function policyOf(statements: readonly StatementSpec[]): ToolPolicy {
  return ToolPolicy.fromStatements(statements);
}

function decide(statements: readonly StatementSpec[], probe: Probe): PolicyDecision {
  return policyOf(statements).decide(probe.call, probe.context);
}

function isDefaultDeny(decision: PolicyDecision): boolean {
  return decision.action === "deny" && decision.ruleIds.length === 0;
}

function reasonParts(decision: PolicyDecision): Set<string> {
  return new Set(decision.reason.split("; "));
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** How one statement with this condition fares for the call: `certain`, `possible` or `no`. */
function matchOf(
  action: PolicyAction,
  tool: ToolName,
  when: ConditionSpec,
  args: unknown,
  context: ToolContext = {},
  contextCondition?: ConditionSpec,
): "certain" | "possible" | "no" {
  const policy = policyOf([
    {
      id: "r",
      kind: "rule",
      action,
      tools: [tool],
      reason: "under test",
      when,
      ...(contextCondition === undefined ? {} : { context: contextCondition }),
    },
  ]);
  const evaluation = policy.explain({ callId: "c", toolName: tool, arguments: args }, context).evaluations[0];
  if (evaluation === undefined) throw new Error("the rule was not evaluated");
  return evaluation.match;
}

/** The three-valued truth of a condition, read through a deny rule (which takes a maybe). */
function truthOf(tool: ToolName, when: ConditionSpec, args: unknown, context: ToolContext = {}) {
  return matchOf("deny", tool, when, args, context);
}

function shellPolicy(prefixes: readonly string[]): ToolPolicy {
  return policyOf([
    {
      id: "allow-commands",
      kind: "rule",
      action: "allow",
      tools: ["run_shell"],
      reason: "listed commands are allowed",
      when: { command: { command: prefixes } },
    },
  ]);
}

function shellCall(command: string): ToolCall {
  return { callId: "c", toolName: "run_shell", arguments: { command } };
}

const shellPrefixesArb = fc.subarray([...COMMAND_PREFIXES], { minLength: 1 });

// ---------------------------------------------------------------------------------------------------------
// Properties

describe("policy properties: adding and removing statements", () => {
  it("adding a deny statement never loosens a decision", () => {
    fc.assert(
      fc.property(withExtraArb("deny"), ({ statements, probe, extra, at }) => {
        const before = decide(statements, probe);
        const after = decide(inserted(statements, extra, at), probe);
        expect(RANK[after.action]).toBeGreaterThanOrEqual(RANK[before.action]);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("adding an ask statement never loosens a decision a statement made, and turns a default deny into at most ask", () => {
    fc.assert(
      fc.property(withExtraArb("ask"), ({ statements, probe, extra, at }) => {
        const before = decide(statements, probe);
        const after = decide(inserted(statements, extra, at), probe);
        const compound = policyOf(statements).explain(probe.call, probe.context).parts !== undefined;
        if (isDefaultDeny(before) && compound) {
          // A part that nothing matched was denied by default; where the ask matches, every part asks at least.
          if (after.action === "deny") expect(isDefaultDeny(after)).toBe(true);
          else {
            expect(after.action).toBe("ask");
            expect(after.ruleIds).toContain("extra");
          }
        } else if (isDefaultDeny(before)) {
          // Nothing matched before: only the new ask statement can match now, unless it is the tool's first
          // `command` statement, which makes the runtime read a compound command part by part: then others may
          // match its parts (`git status && rm -rf /`: an ask of `prefix: rm` matches the second part).
          const withExtra = inserted(statements, extra, at);
          const partsAfter = policyOf(withExtra).explain(probe.call, probe.context).parts !== undefined;
          if (after.action === "deny") expect(isDefaultDeny(after)).toBe(true);
          else if (partsAfter) expect(after.action).toBe("ask");
          else expect(after).toMatchObject({ action: "ask", ruleIds: ["extra"] });
        } else {
          expect(RANK[after.action]).toBeGreaterThanOrEqual(RANK[before.action]);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("adding an allow statement never tightens a decision", () => {
    fc.assert(
      fc.property(withExtraArb("allow"), ({ statements, probe, extra, at }) => {
        const before = decide(statements, probe);
        const after = decide(inserted(statements, extra, at), probe);
        // Except where the added allow is the tool's first statement reading the command field with another
        // operator than `command` (`in: [...]`): an ask of the whole string is then decided part by part
        // (policy.ts `#partsToRead`), and a part nothing allows falls to the default deny (`git status; rm -rf /`).
        const splitBefore = policyOf(statements).explain(probe.call, probe.context).parts !== undefined;
        const parts = policyOf(inserted(statements, extra, at)).explain(probe.call, probe.context).parts;
        if (!splitBefore && parts !== undefined && before.action === "ask" && after.action === "deny")
          expect(parts.some((p) => p.decision.action === "deny")).toBe(true);
        else expect(RANK[after.action]).toBeLessThanOrEqual(RANK[before.action]);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("removing a deny statement never tightens, removing an ask never tightens except into the default deny when it alone matched, and removing an allow never loosens", () => {
    fc.assert(
      fc.property(
        policyCaseArb.filter(([s]) => s.length > 0),
        fc.nat(),
        ([statements, probe], index) => {
          const i = index % statements.length;
          const removed = statements[i] as StatementSpec;
          const before = decide(statements, probe);
          const after = decide(
            statements.filter((_, k) => k !== i),
            probe,
          );
          if (removed.action === "allow") {
            // Except where the removed allow was the tool's one statement reading the command field with another
            // operator than `command` (`exists: false`): an ask of the whole string then stands instead of being
            // decided part by part (policy.ts `#partsToRead`), so a compound command's part that nothing allows no
            // longer falls to the default deny (`git status; rm -rf /` under an ask of `rm -rf`).
            const rest = statements.filter((_, k) => k !== i);
            const splitBefore = policyOf(statements).explain(probe.call, probe.context).parts !== undefined;
            const splitAfter = policyOf(rest).explain(probe.call, probe.context).parts !== undefined;
            if (splitBefore && !splitAfter && after.action === "ask") {
              expect(isDefaultDeny(before) || before.action === "ask").toBe(true);
              expect(decide(rest, probe).ruleIds.length).toBeGreaterThan(0);
            } else expect(RANK[after.action]).toBeGreaterThanOrEqual(RANK[before.action]);
          } else if (removed.action === "ask" && isDefaultDeny(after)) {
            // The only way up: the removed ask was the one statement that matched, or, for a compound command
            // decided part by part, the one that matched a part (`git status | sh`: a set entry's ask alone matched
            // `git status`, which then falls to the default deny).
            if (!isDefaultDeny(before)) {
              const parts = policyOf(statements).explain(probe.call, probe.context).parts;
              if (parts === undefined) expect(before).toMatchObject({ action: "ask", ruleIds: [removed.id] });
              else
                expect(
                  parts.some(
                    (p) =>
                      p.decision.action === "ask" &&
                      p.decision.ruleIds.length === 1 &&
                      p.decision.ruleIds[0] === removed.id,
                  ),
                ).toBe(true);
            }
          } else {
            expect(RANK[after.action]).toBeLessThanOrEqual(RANK[before.action]);
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});

describe("policy properties: strictest wins", () => {
  it("the decision is the strictest matched statement's action, or the default deny when none matched, with a reason and exactly the winning statements", () => {
    fc.assert(
      fc.property(policyCaseArb, ([statements, probe]) => {
        const policy = policyOf(statements);
        const { decision, evaluations, parts } = policy.explain(probe.call, probe.context);
        expect(policy.decide(probe.call, probe.context)).toStrictEqual(decision);
        // Every statement naming the tool is evaluated, in order.
        const onTool = statements.filter((s) => s.tools.includes(probe.call.toolName));
        expect(evaluations.map((e) => e.statement.id)).toEqual(onTool.map((s) => s.id));
        if (parts === undefined) {
          strictestMatched(decision, evaluations);
          return;
        }
        // A compound command: each simple command is decided as a call of its own, and the call's decision is
        // the strictest of theirs (or a stricter deny or ask the whole string gets from a statement).
        for (const part of parts) {
          expect(part.evaluations.map((e) => e.statement.id)).toEqual(onTool.map((s) => s.id));
          strictestMatched(part.decision, part.evaluations);
        }
        expect(RANK[decision.action]).toBeGreaterThanOrEqual(
          Math.max(...parts.map((p) => RANK[p.decision.action])),
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("a tool reported as denied outright is denied for every call", () => {
    fc.assert(
      fc.property(policyCaseArb, ([statements, probe]) => {
        const policy = policyOf(statements);
        if (policy.isDeniedOutright(probe.call.toolName)) {
          expect(policy.decide(probe.call, probe.context).action).toBe("deny");
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe("policy properties: compound commands", () => {
  it("a compound command is allowed by an allow command rule only if each of its simple commands alone is allowed", () => {
    fc.assert(
      fc.property(shellPrefixesArb, compoundArb, (prefixes, compound) => {
        const policy = shellPolicy(prefixes);
        if (policy.decide(shellCall(compound.text)).action !== "allow") return;
        for (const part of compound.parts) {
          expect({ part, action: policy.decide(shellCall(part)).action }).toEqual({ part, action: "allow" });
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("a compound command whose simple commands are each allowed is allowed exactly when it is inside the safe shell subset (every joiner and nesting is read)", () => {
    fc.assert(
      fc.property(shellPrefixesArb, compoundArb, (prefixes, compound) => {
        const policy = shellPolicy(prefixes);
        if (!compound.parts.every((part) => policy.decide(shellCall(part)).action === "allow")) return;
        // Groups, `&` and substitutions are outside the subset that every common sh reads alike: no allow.
        const inside = readSafeSubset(compound.text) !== undefined;
        expect(policy.decide(shellCall(compound.text)).action === "allow").toBe(inside);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe("policy properties: conservative matching", () => {
  const ruleOnToolArb = fc.constantFrom(...TOOLS).chain((tool) =>
    fc.record(
      {
        tool: fc.constant(tool),
        when: whenArbFor(tool),
        context: contextConditionArb,
        probe: probeArbFor(tool),
      },
      { requiredKeys: ["tool", "when", "probe"] },
    ),
  );

  it("an allow rule matches no call that a deny rule with the same condition does not match (certain is within possible)", () => {
    fc.assert(
      fc.property(ruleOnToolArb, ({ tool, when, context, probe }) => {
        const allow = matchOf("allow", tool, when, probe.call.arguments, probe.context, context);
        const deny = matchOf("deny", tool, when, probe.call.arguments, probe.context, context);
        expect(allow).not.toBe("possible");
        if (allow === "certain") expect(deny).toBe("certain");
        if (deny === "certain") expect(allow).toBe("certain");
        // Both rules on one tool: an allow never wins over its own deny twin.
        const both = policyOf([
          { id: "a", kind: "rule", action: "allow", tools: [tool], reason: "a", when },
          { id: "d", kind: "rule", action: "deny", tools: [tool], reason: "d", when },
        ]);
        expect(both.decide(probe.call, probe.context).action).toBe("deny");
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("a condition and its negation are never both certain, and at least one of them may match", () => {
    const singleFieldArb = fc.constantFrom(...TOOLS).chain((tool) =>
      fc.record({
        tool: fc.constant(tool),
        field: fc.constantFrom(...FIELDS[tool]),
        probe: probeArbFor(tool),
      }),
    );
    fc.assert(
      fc.property(
        singleFieldArb.chain((x) => operatorSpecArb(x.field[1]).map((spec) => ({ ...x, spec }))),
        ({ tool, field: [name], probe, spec }) => {
          const positive = truthOf(tool, { [name]: spec }, probe.call.arguments);
          const negative = truthOf(tool, { [name]: { not: spec } }, probe.call.arguments);
          expect(positive === "certain" && negative === "certain").toBe(false);
          expect(positive === "no" && negative === "no").toBe(false);
          const expected = { certain: "no", possible: "possible", no: "certain" } as const;
          expect(negative).toBe(expected[positive]);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("an unparseable command never satisfies an allow command rule and always may match a deny one", () => {
    fc.assert(
      fc.property(shellPrefixesArb, unparseableArb, (prefixes, command) => {
        const when = { command: { command: prefixes } };
        expect(matchOf("allow", "run_shell", when, { command })).toBe("no");
        // A prefix no command here starts with: only a refused parse makes it a maybe.
        expect(truthOf("run_shell", { command: { command: ["no-such-tool"] } }, { command })).toBe(
          "possible",
        );
        expect(matchOf("deny", "run_shell", when, { command })).not.toBe("no");
      }),
      { numRuns: NUM_RUNS },
    );
  });

  /** Paths with more `..` than directories before them somewhere: where they point depends on the root. */
  const climbingPathArb = fc
    .tuple(
      fc.boolean(),
      fc.array(fc.constantFrom("a", "src", ".", "", ".env"), { maxLength: 3 }),
      fc.integer({ min: 1, max: 3 }),
      fc.array(fc.constantFrom("a", "src", ".", "..", ".env", "etc", "passwd"), { maxLength: 3 }),
    )
    .map(([absolute, down, extraUps, rest]) => {
      const depth = down.filter((s) => s !== "." && s !== "").length;
      const ups = Array<string>(depth + extraUps).fill("..");
      return `${absolute ? "/" : ""}${[...down, ...ups, ...rest].join("/")}`;
    });

  it("a path that climbs out of its root never satisfies an allow glob, and may match a deny glob", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom(...GLOBS),
          fc.array(fc.constantFrom(...GLOBS), { minLength: 1, maxLength: 3 }),
        ),
        climbingPathArb,
        (glob, path) => {
          expect(matchOf("allow", "read_file", { path: { glob } }, { path })).toBe("no");
          expect(matchOf("deny", "read_file", { path: { glob } }, { path })).toBe("possible");
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("a path that climbs out of its root is a maybe for every path_prefix, so neither an allow path_prefix nor an allow not-path_prefix matches it", () => {
    fc.assert(
      fc.property(fc.constantFrom(...PREFIXES, "/etc/", "../"), climbingPathArb, (prefix, path) => {
        const path_prefix = prefix;
        expect(matchOf("allow", "read_file", { path: { path_prefix } }, { path })).toBe("no");
        expect(matchOf("allow", "read_file", { path: { not: { path_prefix } } }, { path })).toBe("no");
        expect(matchOf("deny", "read_file", { path: { path_prefix } }, { path })).toBe("possible");
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe("policy properties: otherwise (fallbacks)", () => {
  /** The same statements plus fallbacks for some tools, possibly several per tool (as layers give). */
  const withFallbacksArb = policyCaseArb.chain(([statements, probe]) =>
    fc.array(fc.tuple(fc.constantFrom(...TOOLS), anyActionArb), { maxLength: 4 }).map((fallbacks) => ({
      statements,
      probe,
      fallbacks: fallbacks.map(
        ([tool, action], i): StatementSpec => ({
          id: `otherwise:${tool}:${i}`,
          kind: "otherwise",
          action,
          tools: [tool],
          reason: `fallback ${i}`,
        }),
      ),
    })),
  );

  it("a fallback decides exactly the calls no statement matched, with the strictest fallback of the tool; every other decision stays as it was", () => {
    fc.assert(
      fc.property(withFallbacksArb, ({ statements, probe, fallbacks }) => {
        // A compound command's parts each fall back on their own: checked on each part, below.
        if (policyOf(statements).explain(probe.call, probe.context).parts !== undefined) return;
        const before = decide(statements, probe);
        const after = decide([...fallbacks, ...statements], probe);
        const own = fallbacks.filter((f) => f.tools.includes(probe.call.toolName));
        if (!isDefaultDeny(before) || own.length === 0) {
          expect(after).toEqual(before);
          return;
        }
        const strictest = Math.max(...own.map((f) => RANK[f.action]));
        const deciding = own.filter((f) => RANK[f.action] === strictest);
        expect(after.action).toBe(deciding[0]?.action);
        expect(after.ruleIds).toEqual(deciding.map((f) => f.id));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("explain marks a fallback matched exactly when it decided, and decide agrees with explain", () => {
    fc.assert(
      fc.property(withFallbacksArb, ({ statements, probe, fallbacks }) => {
        const policy = policyOf([...statements, ...fallbacks]);
        const explained = policy.explain(probe.call, probe.context);
        expect(explained.decision).toEqual(policy.decide(probe.call, probe.context));
        // A compound command: each part's explanation marks the fallback that decided that part.
        for (const { decision, evaluations } of explained.parts ?? [explained]) {
          for (const e of evaluations.filter((x) => x.statement.kind === "otherwise")) {
            expect(e.matched).toBe(decision.ruleIds.includes(e.statement.id));
          }
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  // Compound commands, part by part (they fall back part by part, too).
  it("a compound command no statement decides as a whole is decided part by part: each simple command as a call of its own, the call by the strictest of their decisions", () => {
    fc.assert(
      fc.property(withFallbacksArb, ({ statements, probe, fallbacks }) => {
        const policy = policyOf([...statements, ...fallbacks]);
        const { decision, parts } = policy.explain(probe.call, probe.context);
        if (parts === undefined) return;
        const partRank = Math.max(...parts.map((p) => RANK[p.decision.action]));
        for (const part of parts) {
          const args = { ...(probe.call.arguments as object), [part.field]: part.command };
          // A part alone is one simple command: decided as it is, to the same decision.
          expect(policy.explain({ ...probe.call, arguments: args }, probe.context).parts).toBeUndefined();
          expect(policy.decide({ ...probe.call, arguments: args }, probe.context)).toEqual(part.decision);
        }
        expect(RANK[decision.action]).toBe(partRank);
        const ids = new Set(
          parts.filter((p) => p.decision.action === decision.action).flatMap((p) => p.decision.ruleIds),
        );
        for (const id of decision.ruleIds) expect(ids.has(id)).toBe(true);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe("policy properties: purity and order", () => {
  it("decide is deterministic, ignores calls decided in between, and neither mutates nor needs to mutate its input", () => {
    fc.assert(
      fc.property(policyCaseArb, fc.array(probeArb, { maxLength: 4 }), ([statements, probe], others) => {
        const statementsBefore = structuredClone(statements);
        const argsBefore = structuredClone(probe.call.arguments);
        const contextBefore = structuredClone(probe.context);
        deepFreeze(statements);
        deepFreeze(probe);
        const policy = policyOf(statements);
        const first = policy.decide(probe.call, probe.context);
        for (const other of others) policy.decide(other.call, other.context);
        const explained = policy.explain(probe.call, probe.context);
        const second = policy.decide(probe.call, probe.context);
        expect(second).toStrictEqual(first);
        expect(explained.decision).toStrictEqual(first);
        expect(policyOf(statements).decide(probe.call, probe.context)).toStrictEqual(first);
        // structuredClone gives plain prototypes, so compare values, not prototypes.
        expect(probe.call.arguments).toEqual(argsBefore);
        expect(probe.context).toEqual(contextBefore);
        expect(statements).toEqual(statementsBefore);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("shuffling the statements changes neither the action nor the set of deciding statements and reasons", () => {
    const shuffledArb = policyCaseArb.chain(([statements, probe]) =>
      fc
        .shuffledSubarray(statements, { minLength: statements.length, maxLength: statements.length })
        .map((shuffled) => ({ statements, shuffled, probe })),
    );
    fc.assert(
      fc.property(shuffledArb, ({ statements, shuffled, probe }) => {
        const a = decide(statements, probe);
        const b = decide(shuffled, probe);
        expect(b.action).toBe(a.action);
        expect([...b.ruleIds].sort()).toEqual([...a.ruleIds].sort());
        expect(reasonParts(b)).toEqual(reasonParts(a));
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Examples: the operator edge cases the properties rely on

describe("operator edge cases", () => {
  const file = (path: unknown) => ({ path });
  const tags = (value: unknown) => ({ tags: value });
  const count = (value: unknown) => ({ count: value });

  it("every glob and regex of the vocabularies compiles", () => {
    const rule = (when: ConditionSpec): DraftStatement => ({
      kind: "rule",
      action: "allow",
      tools: ["read_file"],
      when,
    });
    for (const glob of GLOBS) expect(() => policyOf(finish([rule({ path: { glob } })]))).not.toThrow();
    for (const regex of REGEXES) expect(() => policyOf(finish([rule({ path: { regex } })]))).not.toThrow();
    expect(() => policyOf(finish([rule({ path: { glob: "../**" } })]))).toThrow(/normalised/);
  });

  it("glob: normalises before matching, matches dot files, and treats case-folded and climbing paths as a maybe", () => {
    const when = { path: { glob: "**/.env*" } };
    expect(truthOf("read_file", when, file(".env"))).toBe("certain");
    expect(truthOf("read_file", when, file("a/.env.local"))).toBe("certain");
    expect(truthOf("read_file", when, file("./a/../.env"))).toBe("certain");
    expect(truthOf("read_file", when, file(".ENV"))).toBe("possible");
    expect(truthOf("read_file", when, file("../.env"))).toBe("possible");
    expect(truthOf("read_file", when, file("x\u0000y"))).toBe("possible");
    expect(truthOf("read_file", when, file(""))).toBe("possible");
    expect(truthOf("read_file", when, file("src/index.ts"))).toBe("no");
    expect(truthOf("read_file", when, file(42))).toBe("possible");
    expect(truthOf("read_file", when, {})).toBe("no");
    expect(truthOf("read_file", { path: { glob: "a/b" } }, file("a//b"))).toBe("certain");
    expect(truthOf("read_file", { path: { glob: "src/**" } }, file("src/a/../../../etc/passwd"))).toBe(
      "possible",
    );
    expect(truthOf("read_file", { path: { glob: "/etc/**" } }, file("/../etc/passwd"))).toBe("possible");
    expect(truthOf("read_file", { path: { glob: ["*.md", "src/*.ts"] } }, file("src//index.ts"))).toBe(
      "certain",
    );
  });

  it("path_prefix: literal on clean paths, a maybe when the path form differs or climbs out of its root", () => {
    const when = { path: { path_prefix: "src/" } };
    expect(truthOf("read_file", when, file("src/index.ts"))).toBe("certain");
    expect(truthOf("read_file", when, file("src/../.env"))).toBe("possible");
    expect(truthOf("read_file", when, file("./src/index.ts"))).toBe("possible");
    expect(truthOf("read_file", when, file("src"))).toBe("certain"); // the folder itself
    expect(truthOf("read_file", when, file("docs/readme.md"))).toBe("no");
    expect(truthOf("read_file", when, file(["src/"]))).toBe("possible");
    // Climbing out of the root: where it lands is unknown, as for globs (this was "no", a deny bypass).
    const etc = { path: { path_prefix: "/etc" } };
    expect(truthOf("read_file", etc, file("../../../../etc/passwd"))).toBe("possible");
    expect(matchOf("allow", "read_file", { path: { not: etc.path } }, file("../../../../etc/passwd"))).toBe(
      "no",
    );
    // A case-insensitive file system and Windows' `\` separator: the readings disagree, so a maybe.
    const secrets = { path: { path_prefix: "secrets/" } };
    expect(truthOf("read_file", secrets, file("SECRETS/key"))).toBe("possible");
    expect(truthOf("read_file", secrets, file("src\\..\\secrets\\key"))).toBe("possible");
    expect(truthOf("read_file", secrets, file("docs\\x"))).toBe("no");
    expect(truthOf("read_file", secrets, file("a\u0000b"))).toBe("possible");
    // A prefix that is not in normal form could never certainly start a normalised path: refused.
    const refused = (path_prefix: string) => () =>
      policyOf([
        {
          id: "p",
          kind: "rule",
          action: "deny",
          tools: ["read_file"],
          reason: "r",
          when: { path: { path_prefix } },
        },
      ]);
    expect(refused("./src/")).toThrow(/path_prefix "\.\/src\/" is not a path in normal form; write "src\/"/);
    expect(refused("a//b")).toThrow(/write "a\/b"/);
    expect(refused("../")).not.toThrow();
    expect(refused("/")).not.toThrow();
  });

  it("prefix: a plain string prefix, exact and case-sensitive, with no path reading", () => {
    const github = { path: { prefix: "https://api.github.com/" } };
    expect(truthOf("read_file", github, file("https://api.github.com/repos/x"))).toBe("certain");
    expect(truthOf("read_file", github, file("https://api.github.com.evil.com/"))).toBe("no");
    expect(truthOf("read_file", github, file("HTTPS://api.github.com/"))).toBe("no");
    expect(truthOf("read_file", { path: { prefix: "src/" } }, file("src/../.env"))).toBe("certain");
    expect(truthOf("read_file", { path: { prefix: "src/" } }, file("./src/a"))).toBe("no");
    expect(truthOf("read_file", github, file(7))).toBe("possible");
    expect(truthOf("read_file", github, {})).toBe("no");
  });

  it("regex: searches the raw string; a non-string is a maybe", () => {
    expect(truthOf("read_file", { path: { regex: "\\.env" } }, file("a/.env.local"))).toBe("certain");
    expect(truthOf("read_file", { path: { regex: "^src/" } }, file("./src/index.ts"))).toBe("no");
    expect(
      truthOf("run_shell", { command: { regex: "rm\\s+-rf" } }, { command: "git status; rm  -rf /" }),
    ).toBe("certain");
    expect(truthOf("read_file", { path: { regex: "^src/" } }, file(null))).toBe("possible");
  });

  it("equals and in: JSON equality, strict about types", () => {
    expect(truthOf("tag_items", { tags: { equals: ["a", "b"] } }, tags(["a", "b"]))).toBe("certain");
    expect(truthOf("tag_items", { tags: { equals: ["a", "b"] } }, tags(["b", "a"]))).toBe("no");
    expect(truthOf("tag_items", { count: { equals: 3 } }, count("3"))).toBe("no");
    expect(truthOf("tag_items", { count: { in: [1, 3] } }, count(3))).toBe("certain");
    expect(truthOf("tag_items", { count: { in: [1, 3] } }, {})).toBe("no");
    expect(truthOf("read_file", { path: { equals: ".env" } }, file("./.env"))).toBe("no");
  });

  it("min and max: inclusive bounds; a non-number is a maybe, a missing field is no match", () => {
    expect(truthOf("tag_items", { count: { min: 3 } }, count(3))).toBe("certain");
    expect(truthOf("tag_items", { count: { min: 3 } }, count(2.5))).toBe("no");
    expect(truthOf("tag_items", { count: { max: 3 } }, count(3))).toBe("certain");
    expect(truthOf("tag_items", { count: { min: 1, max: 5 } }, count(10))).toBe("no");
    expect(truthOf("tag_items", { count: { min: 1, max: 5 } }, count("3"))).toBe("possible");
    expect(truthOf("tag_items", { count: { min: 1 } }, {})).toBe("no");
  });

  it("exists: certain either way", () => {
    expect(truthOf("tag_items", { count: { exists: true } }, count(0))).toBe("certain");
    expect(truthOf("tag_items", { count: { exists: true } }, {})).toBe("no");
    expect(truthOf("tag_items", { count: { exists: false } }, {})).toBe("certain");
    expect(truthOf("tag_items", { count: { exists: false } }, count(null))).toBe("no");
  });

  it("any and all: over array elements; an empty array has none and all; a non-array is a maybe", () => {
    const anyEnv = { tags: { any: { glob: "**/.env*" } } };
    const allPlain = { tags: { all: { regex: "^[a-z]+$" } } };
    expect(truthOf("tag_items", anyEnv, tags(["a", ".env"]))).toBe("certain");
    expect(truthOf("tag_items", anyEnv, tags(["a", "../x"]))).toBe("possible");
    expect(truthOf("tag_items", anyEnv, tags(["a", "b"]))).toBe("no");
    expect(truthOf("tag_items", anyEnv, tags([]))).toBe("no");
    expect(truthOf("tag_items", allPlain, tags([]))).toBe("certain");
    expect(truthOf("tag_items", allPlain, tags(["a", "x y"]))).toBe("no");
    expect(truthOf("tag_items", allPlain, tags(["a", 1]))).toBe("possible");
    expect(truthOf("tag_items", allPlain, tags("a"))).toBe("possible");
  });

  it("not: swaps certain and no, keeps a maybe a maybe", () => {
    const notEnv = { path: { not: { glob: "**/.env*" } } };
    expect(truthOf("read_file", notEnv, file("src/index.ts"))).toBe("certain");
    expect(truthOf("read_file", notEnv, file("./a/../.env"))).toBe("no");
    expect(truthOf("read_file", notEnv, file(".ENV"))).toBe("possible");
    expect(truthOf("read_file", notEnv, file("../x"))).toBe("possible");
    expect(truthOf("read_file", notEnv, {})).toBe("certain");
    expect(truthOf("read_file", { path: { not: { path_prefix: "src/" } } }, file("src/../.env"))).toBe(
      "possible",
    );
    expect(matchOf("allow", "read_file", notEnv, file(".ENV"))).toBe("no");
  });

  it("command: word prefixes of every simple command, conservatively", () => {
    const when = (prefixes: readonly string[]) => ({ command: { command: prefixes } });
    const run = (command: string) => ({ command });
    const git = when(["git status"]);
    expect(truthOf("run_shell", git, run("git status --short"))).toBe("certain");
    expect(truthOf("run_shell", git, run('"git" status'))).toBe("certain");
    expect(truthOf("run_shell", git, run("git statusx"))).toBe("no");
    expect(truthOf("run_shell", git, run("git status; rm -rf /"))).toBe("possible");
    expect(truthOf("run_shell", git, run("git status > out.txt"))).toBe("possible");
    expect(truthOf("run_shell", git, run("FOO=1 git status"))).toBe("possible");
    expect(truthOf("run_shell", git, run("$X status"))).toBe("possible");
    expect(truthOf("run_shell", git, run("env git status"))).toBe("possible");
    expect(truthOf("run_shell", git, run("~/bin/git status"))).toBe("possible");
    expect(truthOf("run_shell", git, run('git status "'))).toBe("possible");
    // Comments, groups, substitutions and braces are outside the safe subset: at most possible.
    expect(truthOf("run_shell", git, run("git status # ; rm -rf /"))).toBe("possible");
    expect(truthOf("run_shell", when(["git status", "rm"]), run("git status && (rm -rf / | ls)"))).toBe(
      "possible",
    );
    expect(
      truthOf("run_shell", when(["git status", "ls"]), run("git status && (ls | ls $(git status))")),
    ).toBe("possible");
    expect(truthOf("run_shell", when(["git status", "ls"]), run("git status && ls | ls"))).toBe("certain");
    expect(truthOf("run_shell", when(["echo"]), run("echo $(rm -rf /)"))).toBe("possible");
    expect(truthOf("run_shell", when(["echo"]), run("echo {rm,-rf,/}"))).toBe("possible");
    expect(truthOf("run_shell", when(["rm"]), run("echo {rm,-rf,/}"))).toBe("no");
    for (const bad of UNPARSEABLE_COMMANDS) {
      expect({ bad, match: matchOf("allow", "run_shell", git, run(bad)) }).toEqual({ bad, match: "no" });
    }
  });

  it("context conditions match the caller's facts like arguments", () => {
    const policy = policyOf([
      {
        id: "prod-ask",
        kind: "rule",
        action: "ask",
        tools: ["read_file"],
        reason: "production reads need approval",
        context: { env: { equals: "prod" } },
      },
      { id: "allow:read_file", kind: "set", action: "allow", tools: ["read_file"], reason: "reads are fine" },
    ]);
    const call = { callId: "c", toolName: "read_file", arguments: file("a/b") };
    expect(policy.decide(call, { env: "prod" }).action).toBe("ask");
    expect(policy.decide(call, { env: "dev" }).action).toBe("allow");
    expect(policy.decide(call, {}).action).toBe("allow");
  });
});
