/**
 * `diff` on shell tools, whose compound commands (`a && b`) the runtime decides part by part: a change that
 * decides no string more loosely decides no compound command more loosely either where both sides read its parts
 * (diff-regions.ts, `wholeMonotone`), so a tightening is complete, not `unknown`. Checked against both controllers
 * on generated pairs of shell policies and a set of simple and compound lines: a complete answer without a
 * loosened region is right on every line, and every region is confirmed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyMode } from "../../src/runtime/mode.js";
import { decisionController } from "../../src/testing/run-policy-tests.js";
import { diffRegions, type RegionSide } from "../../src/verify/diff-regions.js";
import { loadFromText } from "../verify/helpers.js";

const TOOLS = `tools:
  - name: shell
    description: Runs a command.
    input_schema:
      type: object
      properties:
        command: { type: string, minLength: 1, maxLength: 200 }
      required: [command]
      additionalProperties: false
`;

type Outcome = "allow" | "ask" | "deny" | "invalid";
const RANK: Readonly<Record<Outcome, number>> = { allow: 0, ask: 1, deny: 2, invalid: 2 };

function outcomeOf(s: RegionSide, command: string): Outcome {
  const controller = decisionController(s.bundle, s.validators);
  const r = controller.explain({ callId: "oracle", toolName: "shell", arguments: { command } }, {});
  return "callId" in r ? "invalid" : applyMode(r.decision, controller.mode).decision.action;
}

interface Rule {
  readonly decision: string;
  readonly when: string;
}

function policyOf(rules: readonly Rule[], otherwise?: string): string {
  const body = rules
    .map(
      (r, i) =>
        `  - id: r${i}\n    tools: [shell]\n    decision: ${r.decision}\n    when:\n      command: ${r.when}\n    reason: r${i}\n`,
    )
    .join("");
  return `version: 1\n${otherwise === undefined ? "" : `otherwise: { shell: ${otherwise} }\n`}${body === "" ? "" : `rules:\n${body}`}`;
}

const side = (label: string, rules: readonly Rule[], otherwise?: string, mode = "") => ({
  label,
  ...loadFromText(TOOLS, policyOf(rules, otherwise), mode),
});

const SAFE: Rule = { decision: "allow", when: '{ command: ["ls", "git status", "pwd"] }' };

describe("diff of shell policies, compound commands", () => {
  it("a word added to a deny list is a tightening, complete, with nothing loosened", () => {
    const base = side("base", [SAFE, { decision: "deny", when: '{ command: ["rm", "curl"] }' }], "ask");
    const head = side(
      "head",
      [SAFE, { decision: "deny", when: '{ command: ["rm", "curl", "wget"] }' }],
      "ask",
    );
    const [shell] = diffRegions(base, head);
    expect(shell?.status, JSON.stringify(shell)).toBe("complete");
    expect(shell?.changes.some((c) => c.change === "loosened")).toBe(false);
    expect(shell?.changes.some((c) => c.change === "tightened")).toBe(true);
  });

  it("an exact allow written as a regex beside an ask list is a tightening, complete: the ask carries to a part", () => {
    // The new side has a regex on the field, so an ask of the whole splits it; the ask's list may run in some
    // part, so the parts give ask at least, never less than the old side's ask of the whole.
    const ask: Rule = { decision: "ask", when: '{ command: ["timeout"] }' };
    const base = side("base", [ask, { decision: "allow", when: '{ command: ["npm test$"] }' }]);
    const head = side("head", [ask, { decision: "allow", when: '{ regex: "^npm test$" }' }]);
    expect([
      outcomeOf(base, "timeout 5 ls && npm test"),
      outcomeOf(head, "timeout 5 ls && npm test"),
    ]).toEqual(["ask", "ask"]);
    const [shell] = diffRegions(base, head);
    expect(shell?.status, JSON.stringify(shell)).toBe("complete");
    expect(shell?.changes.some((c) => c.change === "loosened")).toBe(false);
    expect(shell?.changes.some((c) => c.change === "tightened")).toBe(true);
    // An ask of a regex does not carry to a part: the new side splits `ls && pwd`, whose parts it allows, where the
    // old side asked of the whole.
    const base2 = side("base", [
      { decision: "ask", when: '{ command: ["pwd"] }' },
      { decision: "allow", when: '{ command: ["ls"] }' },
    ]);
    const head2 = side("head", [
      { decision: "ask", when: '{ regex: "&&" }' },
      { decision: "allow", when: '{ command: ["ls", "pwd"] }' },
    ]);
    expect([outcomeOf(base2, "ls && pwd"), outcomeOf(head2, "ls && pwd")]).toEqual(["ask", "allow"]);
    const [other] = diffRegions(base2, head2);
    expect(other?.status === "unknown" || other?.changes.some((c) => c.change === "loosened")).toBe(true);
  });

  it("a deny list narrowed where the default deny still catches its lines is complete: the old deny carries to a part", () => {
    const allow: Rule = { decision: "allow", when: '{ command: ["ls", "echo", "npm test$"] }' };
    const base = side("base", [{ decision: "deny", when: '{ command: ["rm -rf", "sudo"] }' }, allow]);
    const head = side("head", [{ decision: "deny", when: '{ command: ["rm -rf -i", "sudo"] }' }, allow]);
    expect([outcomeOf(base, "ls && rm -rf x"), outcomeOf(head, "ls && rm -rf x")]).toEqual(["deny", "deny"]);
    const [shell] = diffRegions(base, head);
    expect(shell?.status, JSON.stringify(shell)).toBe("complete");
    expect(shell?.changes.some((c) => c.change === "loosened")).toBe(false);
    // A deny of the whole line by a pattern no part shows does not carry: taken out, the parts decide.
    const ask: Rule = { decision: "ask", when: '{ command: ["sudo"] }' };
    const lsOnly: Rule = { decision: "allow", when: '{ regex: "^ls$" }' };
    const withDeny = side("base", [{ decision: "deny", when: '{ regex: "&&" }' }, lsOnly, ask]);
    const without = side("head", [lsOnly, ask]);
    expect([outcomeOf(withDeny, "ls && ls"), outcomeOf(without, "ls && ls")]).toEqual(["deny", "allow"]);
    const [other] = diffRegions(withDeny, without);
    expect(other?.status === "unknown" || other?.changes.some((c) => c.change === "loosened")).toBe(true);
  });

  it("a deny entry spelt another way the other entries already cover changes nothing, and diff says so", () => {
    // `rm -R` may run wherever `rm -r` may (option letters in any case), and `rm -R -f` only where `rm -R` may: the
    // deny list denies the same lines before and after.
    const deny = (list: string): Rule => ({ decision: "deny", when: `{ command: [${list}] }` });
    const base = side("base", [SAFE, deny('"rm -rf", "rm -r", "rm -R"')], "ask");
    const head = side("head", [SAFE, deny('"rm -rf", "rm -r", "rm -R -f"')], "ask");
    const [shell] = diffRegions(base, head);
    expect(shell?.status, JSON.stringify(shell)).toBe("complete");
    expect(shell?.changes, JSON.stringify(shell)).toEqual([]);
    // Without `rm -r`, the same change lets `rm -R` through to the fallback: a loosening, with a witness.
    const before = side("base", [SAFE, deny('"rm -rf", "rm -R"')], "ask");
    const after = side("head", [SAFE, deny('"rm -rf", "rm -R -f"')], "ask");
    const [loose] = diffRegions(before, after);
    const loosened = loose?.changes.filter((c) => c.change === "loosened") ?? [];
    expect(loosened.length, JSON.stringify(loose)).toBeGreaterThan(0);
    for (const change of loosened) {
      const command = (change.arguments as { command: string }).command;
      expect(RANK[outcomeOf(after, command)], command).toBeLessThan(RANK[outcomeOf(before, command)]);
    }
  });

  it("a deny of a whole line taken out is a loosening its parts show (ls && pwd)", () => {
    // Each part is allowed alone; the whole line matches no allow and falls back to deny on both sides, where the
    // old side's deny of `&&` stands and the new side reads the parts: only they show the loosening. (A `command`
    // rule makes the runtime read compound commands part by part.)
    const parts: Rule[] = [
      { decision: "allow", when: '{ regex: "^ls$" }' },
      { decision: "allow", when: '{ regex: "^pwd$" }' },
      { decision: "deny", when: '{ command: ["sudo"] }' },
    ];
    const base = side("base", [...parts, { decision: "deny", when: '{ regex: "&&" }' }]);
    const head = side("head", parts);
    expect([outcomeOf(base, "ls && pwd"), outcomeOf(head, "ls && pwd")]).toEqual(["deny", "allow"]);
    const [shell] = diffRegions(base, head);
    // Found with a line of the allowed patterns' texts, joined.
    expect(shell?.status, JSON.stringify(shell)).toBe("complete");
    const loosened = shell?.changes.filter((c) => c.change === "loosened") ?? [];
    expect(loosened.length, JSON.stringify(shell)).toBeGreaterThan(0);
    for (const change of loosened) {
      const command = (change.arguments as { command: string }).command;
      expect(RANK[outcomeOf(head, command)]).toBeLessThan(RANK[outcomeOf(base, command)]);
    }
  });

  it("an allow of a whole line added where the old side read its parts is a loosening (ls && rm a)", () => {
    // The old side lets every line through but one whose part starts with rm; the new one allows any line with
    // `&&` as a whole, so its parts are no longer read. No line is decided more loosely as a whole.
    const rules: Rule[] = [
      { decision: "deny", when: '{ regex: "^rm" }' },
      { decision: "ask", when: '{ command: ["sudo"] }' },
    ];
    const base = side("base", rules, "allow");
    const head = side("head", [...rules, { decision: "allow", when: '{ regex: "&&" }' }], "allow");
    expect([outcomeOf(base, "ls && rm a"), outcomeOf(head, "ls && rm a")]).toEqual(["deny", "allow"]);
    const [shell] = diffRegions(base, head);
    // Never "complete, nothing loosened": a loosened region, or unknown (no line is built from a pattern with no
    // fixed text, such as `^rm`).
    const loosened = shell?.changes.filter((c) => c.change === "loosened") ?? [];
    expect(shell?.status === "unknown" || loosened.length > 0, JSON.stringify(shell)).toBe(true);
  });

  const WORDS = ["ls", "pwd", "git", "status", "rm", "curl", "-rf", "a", "sudo", "'x y'", "$x"];
  const simple = fc
    .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 })
    .map((words) => words.join(" "));
  const line = fc
    .tuple(
      simple,
      fc.array(fc.tuple(fc.constantFrom(" && ", " ; ", " | ", " || ", "\n"), simple), { maxLength: 2 }),
    )
    .map(([first, rest]) => first + rest.map(([op, s]) => op + s).join(""));
  const LINES = [
    ...fc.sample(line, { numRuns: 600, seed: 11 }),
    "ls && pwd",
    "ls && rm a",
    "git status; curl x",
    "ls | sudo rm",
    "ls '&&' pwd",
    "rm",
    "ls",
  ];

  const when = fc.constantFrom(
    '{ command: ["ls", "git status", "pwd"] }',
    '{ command: ["ls"] }',
    '{ command: ["rm", "curl"] }',
    '{ command: ["rm"] }',
    '{ command: ["sudo"] }',
    '{ regex: "&&" }',
    '{ regex: "^ls$" }',
    '{ regex: "^pwd$" }',
    '{ regex: "rm" }',
    '{ regex: "\\\\$" }',
    '{ not: { command: ["ls", "pwd"] } }',
  );
  const policySide = fc.record({
    rules: fc.array(fc.record({ decision: fc.constantFrom("allow", "ask", "deny"), when }), {
      minLength: 1,
      maxLength: 3,
    }),
    otherwise: fc.constantFrom(undefined, "ask", "allow"),
  });

  it("property: a complete answer without a loosened region is right on every line; every region is confirmed", () => {
    let complete = 0;
    let tightOnly = 0;
    fc.assert(
      fc.property(policySide, fc.boolean(), policySide, fc.boolean(), (x, keep, y, ci) => {
        const mode = ci ? "mode: ci\n" : "";
        // Half the pairs share their rules but one, as real changes do.
        const headRules = keep ? [...x.rules.slice(0, -1), ...y.rules.slice(0, 1)] : y.rules;
        const base = side("base", x.rules, x.otherwise, mode);
        const head = side("head", headRules, keep ? x.otherwise : y.otherwise, mode);
        const [shell] = diffRegions(base, head);
        if (shell === undefined) return;
        for (const change of shell.changes) {
          const command = (change.arguments as { command: string }).command;
          expect([outcomeOf(base, command), outcomeOf(head, command)], command).toEqual([
            change.before,
            change.after,
          ]);
        }
        if (shell.status !== "complete") return;
        complete++;
        if (shell.changes.some((c) => c.change === "loosened")) return;
        tightOnly++;
        for (const command of LINES) {
          const before = outcomeOf(base, command);
          const after = outcomeOf(head, command);
          expect(
            RANK[after] >= RANK[before],
            `${JSON.stringify(command)}: ${before} → ${after}\n${policyOf(x.rules, x.otherwise)}\n${policyOf(headRules, keep ? x.otherwise : y.otherwise)}`,
          ).toBe(true);
        }
      }),
      { numRuns: Number(process.env.TOOLGATE_DIFF_ENGINE_RUNS ?? 60) },
    );
    expect(complete).toBeGreaterThan(10);
    expect(tightOnly).toBeGreaterThan(3);
  }, 300_000);
});
