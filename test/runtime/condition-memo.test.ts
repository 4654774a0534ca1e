/**
 * Each compiled policy keeps the last path and the last command string its rules read (one entry each), in its
 * conditions' compile scope, so that several rules reading the same argument read it once per decision. The
 * invariants: a memo hit gives exactly what a fresh read gives, whatever was read before and by whom; and no
 * two policies (or two scopes) share a memo, so that interleaving them on different inputs changes no answer.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConditionScope, type ConditionSpec, compileCondition } from "../../src/runtime/condition.js";
import { normalizePath, readingText, readPath } from "../../src/runtime/match/path.js";
import { readSafeSubset, readShellCommand } from "../../src/runtime/match/shell.js";
import { ToolPolicy, type ToolPolicyOptions } from "../../src/runtime/policy.js";

/**
 * Path pieces that reach every kind of reading: plain names, dot files, `..` climbing, empty segments, Windows
 * separators, drives and short names, device names, NFC and NFD, a dotless ı, case that folds, trailing dots.
 */
const PATH_PIECES = [
  "src",
  "Src",
  "docs",
  "DOCS",
  ".env",
  ".env.local",
  ".ssh",
  "id_rsa",
  "key.pem",
  "README.md",
  "a.ts",
  "..",
  ".",
  "",
  "C:",
  "a\\b",
  "PROGRA~1",
  "con",
  "nul.txt",
  "x.",
  "y ",
  "caf\u00e9",
  "cafe\u0301",
  "\u0131d",
  "K",
  "a:b",
];

const pathArb = fc
  .tuple(
    fc.constantFrom("", "/", "./"),
    fc.array(fc.constantFrom(...PATH_PIECES), { minLength: 1, maxLength: 4 }),
    fc.constantFrom("/", "/", "\\", "//"),
  )
  .map(([lead, pieces, separator]) => lead + pieces.join(separator));

/** Command pieces that reach every kind of reading: lists, pipes, wrappers, expansions, quotes, newlines. */
const COMMAND_PIECES = [
  "git status",
  "git push --force",
  "ls -la",
  "rm -rf /",
  "sudo rm x",
  "npm test",
  "echo $(rm -rf /)",
  "echo `id`",
  "bash -c 'rm -rf /'",
  "env FOO=1 git status",
  'echo "unclosed',
  "cat <<EOF",
  "x=1",
  "find . -delete",
  "time git status",
];

const commandArb = fc
  .tuple(
    fc.array(fc.constantFrom(...COMMAND_PIECES), { minLength: 1, maxLength: 3 }),
    fc.constantFrom(" && ", "; ", " | ", "\n", " || "),
  )
  .map(([pieces, joiner]) => pieces.join(joiner));

const POLICY_A: ToolPolicyOptions = {
  rules: [
    {
      id: "a-secrets",
      tools: ["read_file"],
      decision: "deny",
      reason: "secrets",
      when: { path: { glob: ["**/.env*", "**/.ssh/**"] } },
    },
    {
      id: "a-src",
      tools: ["read_file"],
      decision: "allow",
      reason: "sources",
      when: { path: { path_prefix: "src/" } },
    },
    {
      id: "a-docs",
      tools: ["read_file"],
      decision: "ask",
      reason: "docs",
      when: { path: { glob: "docs/**", path_prefix: "docs/" } },
    },
    {
      id: "a-git",
      tools: ["bash"],
      decision: "allow",
      reason: "read-only",
      when: { command: { command: ["git status", "ls"] } },
    },
    {
      id: "a-rm",
      tools: ["bash"],
      decision: "deny",
      reason: "removal",
      when: { command: { command: ["rm -rf"] } },
    },
  ],
};

const POLICY_B: ToolPolicyOptions = {
  rules: [
    {
      id: "b-keys",
      tools: ["read_file"],
      decision: "deny",
      reason: "keys",
      when: { path: { glob: "**/*.pem" } },
    },
    {
      id: "b-docs",
      tools: ["read_file"],
      decision: "allow",
      reason: "docs",
      when: { path: { path_prefix: "docs/" } },
    },
    {
      id: "b-src",
      tools: ["read_file"],
      decision: "allow",
      reason: "sources",
      when: { path: { glob: ["src/**", "*.md"] } },
    },
    {
      id: "b-git",
      tools: ["bash"],
      decision: "ask",
      reason: "tests",
      when: { command: { command: ["npm test", "git"] } },
    },
    {
      id: "b-sudo",
      tools: ["bash"],
      decision: "deny",
      reason: "root",
      when: { command: { command: ["sudo"] } },
    },
  ],
};

type Step =
  | { readonly policy: 0 | 1; readonly tool: "read_file"; readonly value: string }
  | { readonly policy: 0 | 1; readonly tool: "bash"; readonly value: string };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    policy: fc.constantFrom(0 as const, 1 as const),
    tool: fc.constant("read_file" as const),
    value: pathArb,
  }),
  fc.record({
    policy: fc.constantFrom(0 as const, 1 as const),
    tool: fc.constant("bash" as const),
    value: commandArb,
  }),
);

/** A step list that also repeats earlier inputs, so that memo hits happen after other policies' reads. */
const stepsArb = fc.array(stepArb, { minLength: 1, maxLength: 8 }).chain((steps) =>
  fc
    .array(fc.tuple(fc.nat({ max: steps.length - 1 }), fc.constantFrom(0 as const, 1 as const)), {
      maxLength: 4,
    })
    .map((repeats) => [...steps, ...repeats.map(([i, policy]) => ({ ...(steps[i] as Step), policy }))]),
);

function callOf(step: Step) {
  const args = step.tool === "read_file" ? { path: step.value } : { command: step.value };
  return { callId: "c", toolName: step.tool, arguments: args };
}

describe("memos of what a policy's rules read", () => {
  it("each scope owns its memo: another scope's read does not replace what it holds", () => {
    const a = new ConditionScope();
    const b = new ConditionScope();
    const path = a.paths.read("src/index.ts");
    b.paths.read("docs/guide.md");
    expect(a.paths.read("src/index.ts")).toBe(path);
    const command = a.shell.read("git status && ls");
    b.shell.read("rm -rf /");
    expect(a.shell.read("git status && ls")).toBe(command);
    const normal = a.paths.normalize("src/../x");
    b.paths.normalize("y");
    expect(a.paths.normalize("src/../x")).toBe(normal);
  });

  it("a memo hit gives exactly what a fresh read gives, whatever two memos read in between (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(0, 1), pathArb, commandArb), { minLength: 1, maxLength: 10 }),
        (steps) => {
          const scopes = [new ConditionScope(), new ConditionScope()];
          for (const [k, path, command] of [...steps, ...steps]) {
            const scope = scopes[k] as ConditionScope;
            const read = scope.paths.read(path);
            expect(read).toEqual(readPath(path));
            read.readings.forEach((reading, i) => {
              expect(scope.paths.text(read, i)).toBe(readingText(reading));
            });
            // A reading of another path is written afresh, never taken from the memo.
            const other = readPath(`${path}/x`);
            if (other.readings.length > 0) {
              expect(scope.paths.text(other, 0)).toBe(readingText(other.readings[0] as never));
            }
            expect(scope.paths.normalize(path)).toEqual(normalizePath(path));
            expect(scope.shell.read(command)).toEqual(readShellCommand(command));
            expect(scope.shell.safeSubset(command)).toEqual(readSafeSubset(command));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("two policies decided in turn on different inputs answer as freshly built ones (property)", () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        const policies = [new ToolPolicy(POLICY_A), new ToolPolicy(POLICY_B)];
        for (const step of steps) {
          const fresh = new ToolPolicy(step.policy === 0 ? POLICY_A : POLICY_B);
          const call = callOf(step);
          expect((policies[step.policy] as ToolPolicy).decide(call), JSON.stringify(step)).toEqual(
            fresh.decide(call),
          );
        }
      }),
      { numRuns: 200 },
    );
  });

  it("two conditions of one scope, on different fields, answer as conditions compiled alone (property)", () => {
    const specs: ConditionSpec[] = [
      { from: { glob: ["**/.env*", "src/**"], path_prefix: "src/" }, to: { glob: "docs/**" } },
      { to: { path_prefix: "docs/" }, run: { command: ["git status", "rm -rf"] } },
      { run: { command: ["sudo", "npm test"] }, from: { glob: "**/*.md" } },
    ];
    const subjectArb = fc.record({ from: pathArb, to: pathArb, run: commandArb });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: specs.length - 1 }), subjectArb), { minLength: 1, maxLength: 8 }),
        (steps) => {
          const scope = new ConditionScope();
          const shared = specs.map((spec) => {
            const compiled = compileCondition(spec, scope);
            if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
            return compiled.condition;
          });
          for (const [k, subject] of [...steps, ...steps]) {
            const alone = compileCondition(specs[k] as ConditionSpec);
            if (!alone.ok) throw new Error(JSON.stringify(alone.problems));
            expect((shared[k] as (s: unknown) => unknown)(subject), JSON.stringify(subject)).toBe(
              alone.condition(subject),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
