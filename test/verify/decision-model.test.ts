/**
 * The decision model (decision-model.ts) against the controller's own decision procedure: on policies whose
 * statements read distinct atoms, the actions `decide` gives for masks of possible truths are exactly the actions
 * `ToolPolicy` and `applyMode` give over every call whose atoms have truths in those masks — no action missing (a
 * wrong `holds`) and none added (an `unknown` or a witness search where a proof was due).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ConditionSpec } from "../../src/runtime/condition.js";
import { applyMode, type ControllerMode } from "../../src/runtime/mode.js";
import { ToolPolicy } from "../../src/runtime/policy.js";
import type { StatementSpec } from "../../src/runtime/statements.js";
import type { PolicyAction } from "../../src/runtime/types.js";
import {
  ACTION_BIT,
  ALLOW,
  ASK,
  actionsOf,
  applyModeMask,
  COMMAND_SEPARATORS,
  DENY,
  INVALID,
  ToolDecision,
} from "../../src/verify/decision-model.js";
import { AtomTable, F, T, U } from "../../src/verify/formula.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200);

/** One glob whose truth is true on `src/a`, false on `x` and maybe on `../src/a` (a path that leaves the root). */
const GLOB = { glob: "src/**" };
const VALUE_OF_TRUTH: Readonly<Record<number, string>> = { [F]: "x", [T]: "src/a", [U]: "../src/a" };
const ACTIONS: readonly PolicyAction[] = ["allow", "ask", "deny"];
const MODES: readonly ControllerMode[] = ["enforce", "observe", "ci"];

interface Shape {
  /** Per statement: its action, how many argument fields its `when` reads (0: none), whether one is negated. */
  readonly rules: readonly {
    readonly action: PolicyAction;
    readonly when: number;
    readonly negate: boolean;
    readonly context: boolean;
  }[];
  readonly fallbacks: readonly PolicyAction[];
  readonly mode: ControllerMode;
}

/** Statements of tool `t` (and one of another tool, which must not count), each reading fields of its own. */
function statementsOf(shape: Shape): StatementSpec[] {
  const out: StatementSpec[] = [];
  shape.rules.forEach((rule, i) => {
    let when: ConditionSpec | undefined;
    if (rule.when > 0) {
      when = {};
      for (let f = 0; f < rule.when; f++) {
        when[`r${i}f${f}`] = rule.negate && f === 0 ? { not: GLOB } : GLOB;
      }
    }
    out.push({
      id: `r${i}`,
      kind: rule.when > 0 || rule.context ? "rule" : "set",
      action: rule.action,
      tools: ["t"],
      reason: `rule ${i}`,
      ...(when === undefined ? {} : { when }),
      ...(rule.context ? { context: { [`c${i}`]: GLOB } } : {}),
    });
  });
  shape.fallbacks.forEach((action, i) => {
    out.push({ id: `o${i}`, kind: "otherwise", action, tools: ["t"], reason: `fallback ${i}` });
  });
  // A statement of another tool: it reads nothing of `t` and decides none of its calls.
  out.push({ id: "other", kind: "set", action: "allow", tools: ["u"], reason: "another tool" });
  return out;
}

/** Every assignment of one truth per atom from its mask. */
function* assignments(masks: Uint8Array): Generator<number[]> {
  const choices = Array.from(masks, (m) => [F, T, U].filter((bit) => (m & bit) !== 0));
  const pick = new Array<number>(masks.length).fill(0);
  for (;;) {
    yield pick.map((k, atom) => (choices[atom] as number[])[k] as number);
    let i = 0;
    while (i < pick.length && (pick[i] as number) + 1 >= (choices[i] as number[]).length) pick[i++] = 0;
    if (i === pick.length) return;
    pick[i] = (pick[i] as number) + 1;
  }
}

/** The actions the controller takes over every call whose atoms have truths in `masks`. */
function controllerActions(
  table: AtomTable,
  policy: ToolPolicy,
  masks: Uint8Array,
  mode: ControllerMode,
): number {
  let out = 0;
  for (const truths of assignments(masks)) {
    const args: Record<string, string> = {};
    const context: Record<string, string> = {};
    truths.forEach((bit, atom) => {
      const field = table.atoms[atom]?.field;
      if (field === undefined) throw new Error(`no atom ${atom}`);
      (field.scope === "arguments" ? args : context)[field.path.join(".")] = VALUE_OF_TRUTH[bit] as string;
    });
    const decision = policy.decide({ callId: "c", toolName: "t", arguments: args }, context);
    out |= ACTION_BIT[applyMode(decision, mode).decision.action];
  }
  return out;
}

const shape: fc.Arbitrary<Shape> = fc.record({
  rules: fc.array(
    fc.record({
      action: fc.constantFrom(...ACTIONS),
      when: fc.integer({ min: 0, max: 2 }),
      negate: fc.boolean(),
      context: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
  fallbacks: fc.array(fc.constantFrom(...ACTIONS), { maxLength: 2 }),
  mode: fc.constantFrom(...MODES),
});

describe("ToolDecision", () => {
  it("gives exactly the controller's actions over the calls its masks stand for", () => {
    fc.assert(
      fc.property(
        shape,
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 12, maxLength: 12 }),
        (s, bits) => {
          const statements = statementsOf(s);
          const table = new AtomTable();
          const decision = new ToolDecision(table, "t", statements, s.mode);
          const policy = new ToolPolicy({ statements });
          const masks = Uint8Array.from(table.atoms, (_, i) => bits[i] as number);
          const want = controllerActions(table, policy, masks, s.mode);
          expect(actionsOf(decision.decide(masks, false))).toEqual(actionsOf(want));
          // No statement reads a command, so splitting compound commands changes nothing.
          expect(decision.decide(masks)).toBe(decision.decide(masks, false));
          expect(decision.commandFieldPaths).toEqual([]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("reads an allow rule only when its conditions are certainly true, a deny or ask rule when they may be", () => {
    for (const action of ACTIONS) {
      const statements = statementsOf({
        rules: [{ action, when: 1, negate: false, context: true }],
        fallbacks: [],
        mode: "enforce",
      });
      const table = new AtomTable();
      const decision = new ToolDecision(table, "t", statements, "enforce");
      const bit = ACTION_BIT[action];
      const cases: [number, number, number][] = [
        [T, T, bit],
        [T, U, action === "allow" ? DENY : bit],
        [U, T, action === "allow" ? DENY : bit],
        [U, U, action === "allow" ? DENY : bit],
        [F, U, DENY],
        [U, F, DENY],
        [F, T, DENY],
        [T, F, DENY],
        [T | F, T, bit | DENY],
        [T | U, T, action === "allow" ? bit | DENY : bit],
      ];
      for (const [when, context, want] of cases) {
        expect(
          decision.decide(Uint8Array.of(when, context)),
          `${action} when ${when} context ${context}`,
        ).toBe(want);
      }
    }
  });

  it("lets the strictest statement that must match stand, and falls back only when none must", () => {
    const statements = statementsOf({
      rules: [
        { action: "allow", when: 1, negate: false, context: false },
        { action: "ask", when: 1, negate: false, context: false },
        { action: "deny", when: 1, negate: false, context: false },
      ],
      fallbacks: ["ask", "allow"],
      mode: "enforce",
    });
    const table = new AtomTable();
    const decision = new ToolDecision(table, "t", statements, "enforce");
    // The strictest fallback (ask) stands when nothing matches.
    expect(decision.decide(Uint8Array.of(F, F, F))).toBe(ASK);
    expect(decision.decide(Uint8Array.of(T, F, F))).toBe(ALLOW);
    expect(decision.decide(Uint8Array.of(T, T, F))).toBe(ASK);
    expect(decision.decide(Uint8Array.of(T, T, T))).toBe(DENY);
    // A deny that may match, over an allow that must: either.
    expect(decision.decide(Uint8Array.of(T, F, T | F))).toBe(ALLOW | DENY);
    // An ask that must match hides the allow below it, not the deny above.
    expect(decision.decide(Uint8Array.of(T, T, T | F))).toBe(ASK | DENY);
    // A rule that may match adds its action and the fallback.
    expect(decision.decide(Uint8Array.of(T | F, F, F))).toBe(ALLOW | ASK);
  });

  it("takes the strictest of several fallbacks, and default deny without one", () => {
    const none = new ToolDecision(
      new AtomTable(),
      "t",
      statementsOf({ rules: [], fallbacks: [], mode: "enforce" }),
      "enforce",
    );
    expect(none.decide(new Uint8Array(0))).toBe(DENY);
    for (const [fallbacks, want] of [
      [["allow"], ALLOW],
      [["allow", "ask"], ASK],
      [["deny", "allow"], DENY],
      [["ask", "allow"], ASK],
    ] as const) {
      const d = new ToolDecision(
        new AtomTable(),
        "t",
        statementsOf({ rules: [], fallbacks, mode: "enforce" }),
        "enforce",
      );
      expect(d.decide(new Uint8Array(0)), fallbacks.join(",")).toBe(want);
    }
  });

  it("ranks each atom by the strictest statement that reads it, in its when or its context", () => {
    const table = new AtomTable();
    const statements: StatementSpec[] = [
      { id: "a", kind: "rule", action: "allow", tools: ["t"], reason: "", when: { p: GLOB, q: GLOB } },
      { id: "b", kind: "rule", action: "deny", tools: ["t"], reason: "", when: { q: GLOB } },
      { id: "c", kind: "rule", action: "ask", tools: ["t"], reason: "", context: { r: GLOB } },
      { id: "d", kind: "rule", action: "allow", tools: ["t"], reason: "", context: { r: GLOB } },
      { id: "e", kind: "rule", action: "deny", tools: ["u"], reason: "", when: { p: GLOB } },
    ];
    const decision = new ToolDecision(table, "t", statements, "enforce");
    const key = (atom: number) => table.atoms[atom]?.field.key;
    const ranks = [...decision.atomRanks()].map(([atom, rank]) => [key(atom), rank]);
    expect(ranks).toEqual([
      ["arguments:p", 0],
      ["arguments:q", 2],
      ["context:r", 1],
    ]);
  });
});

describe("compound commands", () => {
  const rule = (id: string, action: PolicyAction, when: ConditionSpec, tools = ["sh"]): StatementSpec => ({
    id,
    kind: "rule",
    action,
    tools,
    reason: id,
    when,
  });

  it("makes every action of the tool possible where the whole string may fall back and may be compound", () => {
    const table = new AtomTable();
    const statements = [
      rule("git", "allow", { cmd: { command: ["git", "status"] } }),
      // Another tool's ask is not an action of `sh`.
      rule("other", "ask", { cmd: { command: ["rm"] } }, ["other"]),
    ];
    const decision = new ToolDecision(table, "sh", statements, "enforce");
    expect(decision.commandFieldPaths).toEqual([["cmd"]]);
    // The statement's atom, then the separators' atom of the field.
    expect(table.atoms.map((a) => [a.operator, a.value])).toEqual([
      ["command", ["git", "status"]],
      ["regex", COMMAND_SEPARATORS],
    ]);
    expect([...decision.atomRanks()]).toEqual([
      [1, 0],
      [0, 0],
    ]);
    // `git status && rm x` falls back as a whole; its parts may then be allowed or denied.
    expect(decision.decide(Uint8Array.of(F, T))).toBe(ALLOW | DENY);
    expect(decision.decide(Uint8Array.of(F, U))).toBe(ALLOW | DENY);
    expect(decision.decide(Uint8Array.of(F, T), false)).toBe(DENY);
    // No separator: one simple command at most, decided as it is.
    expect(decision.decide(Uint8Array.of(F, F))).toBe(DENY);
    // A string the allow rule certainly matches is decided as it is: only the command reads the field.
    expect(decision.decide(Uint8Array.of(T, T))).toBe(ALLOW);
  });

  it("splits a string that gets an ask when another operator reads the command field", () => {
    const table = new AtomTable();
    const statements = [
      rule("git", "allow", { cmd: { command: ["git"] } }),
      rule("sudo", "ask", { cmd: { prefix: "sudo" } }),
      rule("rm", "deny", { cmd: { command: ["rm"] } }),
    ];
    const decision = new ToolDecision(table, "sh", statements, "enforce");
    const [git, sudo, rm, separators] = [0, 1, 2, 3];
    const masks = (g: number, l: number, r: number, s = T) => {
      const m = new Uint8Array(table.atoms.length);
      m[git] = g;
      m[sudo] = l;
      m[rm] = r;
      m[separators] = s;
      return m;
    };
    expect(table.atoms.map((a) => a.operator)).toEqual(["command", "prefix", "command", "regex"]);
    // An ask that must match: the parts may still decide (allow, ask or deny).
    expect(decision.decide(masks(F, T, F))).toBe(ALLOW | ASK | DENY);
    expect(decision.decide(masks(F, T, F), false)).toBe(ASK);
    // Unless the string holds no separator.
    expect(decision.decide(masks(F, T, F, F))).toBe(ASK);
    // An allow that must match, no ask possible: decided as it is.
    expect(decision.decide(masks(T, F, F))).toBe(ALLOW);
    // A deny that must match: decided as it is.
    expect(decision.decide(masks(T, T, T))).toBe(DENY);
  });

  it("gives the parts a floor of ask when only asks of a command list alone split the whole (diff)", () => {
    const table = new AtomTable();
    const statements = [
      rule("git", "allow", { cmd: { command: ["git"] } }),
      rule("timeout", "ask", { cmd: { command: ["timeout"] }, other: { prefix: "a" } }),
      rule("sudo", "ask", { cmd: { prefix: "sudo" } }),
    ];
    const [git, timeout, other, sudo, separators] = [0, 1, 2, 3, 4];
    const masks = (t: number, l: number, a = T) => {
      const m = new Uint8Array(table.atoms.length);
      m[git] = F;
      m[timeout] = t;
      m[other] = a;
      m[sudo] = l;
      m[separators] = T;
      return m;
    };
    for (const mode of ["enforce", "ci", "observe"] as const) {
      const decision = new ToolDecision(table, "sh", statements, mode);
      expect(table.atoms.map((a) => a.operator)).toEqual(["command", "command", "prefix", "prefix", "regex"]);
      const floor = mode === "enforce" ? ASK : mode === "ci" ? DENY : ALLOW;
      // The timeout list asks of the whole and may run in a part (its other field is kept): ask at least.
      // Its ask does not stand (a prefix reads the field too): the parts decide.
      expect(decision.decideWhole(masks(T, F))).toEqual({
        stands: 0,
        maySplit: true,
        splitFloor: floor,
        // No ask stands; a deny would carry (there is none): in the enforce mode only.
        carried: mode === "enforce" ? ASK | DENY : 0,
      });
      // An ask of a prefix may match: it does not carry to a part.
      expect(decision.decideWhole(masks(T, T)).carried).toBe(mode === "enforce" ? DENY : 0);
      expect(decision.decideWhole(masks(U, F)).splitFloor).toBe(floor);
      // An ask of a prefix is not known to carry to a part (the runtime writes parts back its own way): no floor.
      expect(decision.decideWhole(masks(F, T)).splitFloor).toBe(ALLOW);
      expect(decision.decideWhole(masks(T, U)).splitFloor).toBe(ALLOW);
      // A whole that may fall back: no floor either.
      expect(decision.decideWhole(masks(F, F)).splitFloor).toBe(ALLOW);
      expect(decision.decideWhole(masks(T, F, F)).splitFloor).toBe(ALLOW);
    }
  });

  it("leaves a string with an ask alone when only `command` reads the field", () => {
    const table = new AtomTable();
    const statements = [
      rule("git", "ask", { cmd: { command: ["git"] } }),
      rule("ls", "allow", { cmd: { command: ["ls"] } }),
    ];
    const decision = new ToolDecision(table, "sh", statements, "enforce");
    expect(decision.decide(Uint8Array.of(T, F, T))).toBe(ASK);
    expect(decision.decide(Uint8Array.of(F, F, T))).toBe(ALLOW | ASK | DENY);
    expect(decision.decide(Uint8Array.of(F, F, F))).toBe(DENY);
  });

  it("reads the separators on every command field, as the statements spell it", () => {
    const table = new AtomTable();
    const statements = [
      rule("a", "allow", { "x.cmd": { command: ["ls"] }, other: { prefix: "a" } }),
      rule("b", "allow", { y: { not: { command: ["rm"] } } }),
    ];
    const decision = new ToolDecision(table, "sh", statements, "enforce");
    expect(decision.commandFieldPaths).toEqual([["x", "cmd"], ["y"]]);
    const separators = table.atoms.filter((a) => a.operator === "regex").map((a) => a.field.key);
    expect(separators).toEqual(["arguments:x.cmd", "arguments:y"]);
    const [ls, , rm, sx, sy] = [0, 1, 2, 3, 4];
    const masks = (x: number, y: number) => {
      const m = new Uint8Array(table.atoms.length).fill(F);
      m[ls] = F;
      m[rm] = T;
      m[sx] = x;
      m[sy] = y;
      return m;
    };
    // Falls back as a whole: split when either field may be compound.
    expect(decision.decide(masks(F, F))).toBe(DENY);
    expect(decision.decide(masks(T, F))).toBe(ALLOW | DENY);
    expect(decision.decide(masks(F, U))).toBe(ALLOW | DENY);
  });
});

describe("masks", () => {
  it("names the actions of a mask in rank order", () => {
    expect(actionsOf(0)).toEqual([]);
    expect(actionsOf(ALLOW)).toEqual(["allow"]);
    expect(actionsOf(ASK)).toEqual(["ask"]);
    expect(actionsOf(DENY)).toEqual(["deny"]);
    expect(actionsOf(INVALID)).toEqual(["invalid"]);
    expect(actionsOf(ALLOW | ASK | DENY | INVALID)).toEqual(["allow", "ask", "deny", "invalid"]);
    expect(actionsOf(DENY | ALLOW)).toEqual(["allow", "deny"]);
  });

  it("applies a mode as applyMode does to each action", () => {
    for (let policy = 0; policy < 8; policy++) {
      for (const mode of MODES) {
        let want = 0;
        for (const action of ACTIONS) {
          if (!(policy & ACTION_BIT[action])) continue;
          const decision = { action, reason: "r", statements: [], fingerprint: "f" } as never;
          want |= ACTION_BIT[(applyMode(decision, mode).decision as { action: PolicyAction }).action];
        }
        expect(applyModeMask(policy, mode), `${policy} in ${mode}`).toBe(want);
      }
    }
  });
});
