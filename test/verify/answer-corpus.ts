/**
 * A fixed corpus of policies and properties for the answer test (answers.test.ts): shell, path and URL policies of
 * the kinds people write, drawn by fast-check from fixed seeds, so that the corpus is the same on every run. The
 * answers of `verify` on it (status, witness, reason) are the test's snapshot: a change of the engine that changes
 * any answer, a witness included, shows there and is either a regression or a deliberate change (update the
 * snapshot with `npx vitest run test/verify/answers.test.ts -u`, and read its diff).
 */
import fc from "fast-check";
import type { PolicyAction } from "../../src/runtime/types.js";
import { readFileTools, shellTools } from "./helpers.js";

/** One case: the tools and policy files, as `loadFromText` takes them, and the properties to verify. */
export interface AnswerCase {
  readonly name: string;
  readonly tools: string;
  readonly policy: string;
  readonly properties: readonly {
    readonly where?: Record<string, unknown>;
    readonly kind: "never" | "always";
    readonly action: PolicyAction;
  }[];
}

const ACTION = fc.constantFrom<PolicyAction>("allow", "ask", "deny");
const KIND = fc.constantFrom<"never" | "always">("never", "never", "always");

/** Command prefixes people list: programs alone, with a subcommand, with flags. */
const COMMAND_PREFIXES = [
  "ls",
  "ls -l",
  "cat",
  "echo",
  "git",
  "git status",
  "git diff",
  "git push",
  "git log",
  "npm",
  "npm test",
  "npm install",
  "npm run build",
  "rm",
  "rm -rf",
  "curl",
  "sudo",
  "find",
  "grep",
  "make",
  "python3",
  "node",
  "env",
  "xargs",
  "sh -c",
  "bash",
  "docker run",
  "kubectl get",
];

/** Patterns of command lines: starts, words anywhere, chaining, a whole line. */
const COMMAND_REGEXES = [
  "^git push",
  "^rm ",
  "^ls$",
  "rm -rf",
  "\\bsudo\\b",
  "^(git|npm) ",
  "[;&|]",
  "^npm install",
  "--force",
  "^cat /etc/",
  "\\.env",
  "^curl .*\\| *sh",
  "^[a-z]+ -l",
  "^echo",
];

const COMMAND_PREFIX_TEXTS = ["git ", "npm ", "rm ", "ls", "cat ", "sudo ", "./", "python"];

export const commandLeaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .uniqueArray(fc.constantFrom(...COMMAND_PREFIXES), { minLength: 1, maxLength: 3 })
      .map((c) => ({ command: c })),
  },
  { weight: 2, arbitrary: fc.constantFrom(...COMMAND_REGEXES).map((r) => ({ regex: r })) },
  { weight: 1, arbitrary: fc.constantFrom(...COMMAND_PREFIX_TEXTS).map((p) => ({ prefix: p })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("ls", "git status", "npm test", "rm -rf /").map((e) => ({ equals: e })),
  },
);

const commandCondition = fc.oneof(
  { weight: 4, arbitrary: commandLeaf },
  { weight: 1, arbitrary: commandLeaf.map((l) => ({ not: l })) },
  { weight: 1, arbitrary: fc.tuple(commandLeaf, commandLeaf).map(([a, b]) => ({ ...b, ...a })) },
);

/** Globs and folders of the kinds people write for files. */
const GLOBS = [
  "**/.env",
  "**/.env*",
  "**/*.pem",
  "src/**",
  "src/**/*.ts",
  "src/**/*.{ts,js}",
  "*.md",
  "docs/*.md",
  "docs/?.md",
  "/etc/**",
  "~/.ssh/**",
  "**/.ssh/**",
  "secrets/[a-z]*",
  "**/node_modules/**",
  "test/**/*.test.ts",
  "**/*.key",
  "build/*",
];
const PATH_PREFIXES = ["/etc/", "/srv/app/", "secrets/", "src", "/home/", "tmp/", "~/"];
const PATH_REGEXES = [
  "\\.env$",
  "^/",
  "\\.\\.",
  "^src/",
  "(^|/)\\.git(/|$)",
  "\\.(pem|key)$",
  "secret",
  "^[^/]+$",
];

export const pathLeaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...GLOBS).map((g) => ({ glob: g })) },
  {
    weight: 1,
    arbitrary: fc
      .uniqueArray(fc.constantFrom(...GLOBS), { minLength: 2, maxLength: 3 })
      .map((g) => ({ glob: g })),
  },
  { weight: 2, arbitrary: fc.constantFrom(...PATH_PREFIXES).map((p) => ({ path_prefix: p })) },
  { weight: 1, arbitrary: fc.constantFrom(...PATH_REGEXES).map((r) => ({ regex: r })) },
  { weight: 1, arbitrary: fc.constantFrom("README.md", ".env", "/etc/passwd").map((e) => ({ equals: e })) },
  { weight: 1, arbitrary: fc.constantFrom("src/", "/", ".").map((p) => ({ prefix: p })) },
);

const pathCondition = fc.oneof(
  { weight: 4, arbitrary: pathLeaf },
  { weight: 1, arbitrary: pathLeaf.map((l) => ({ not: l })) },
  { weight: 1, arbitrary: fc.tuple(pathLeaf, pathLeaf).map(([a, b]) => ({ ...b, ...a })) },
);

/** URL operators: schemes, hosts (with a wildcard), ports, paths. */
export const urlLeaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record(
        {
          scheme: fc.constantFrom(["https"], ["http", "https"], ["wss"]),
          host: fc.uniqueArray(
            fc.constantFrom(
              "example.com",
              "*.example.com",
              "registry.npmjs.org",
              "api.github.com",
              "localhost",
              "10.0.0.1",
            ),
            { minLength: 1, maxLength: 2 },
          ),
          port: fc.constantFrom([443], [8080]),
          path: fc.constantFrom(["/v1/**"], ["/docs/**", "/"], ["/api/*"]),
        },
        { requiredKeys: ["host"] },
      )
      .map((u) => ({ url: u })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("^https://", "^http://", "@", "^https://[0-9]", "\\?token=", "example\\.com")
      .map((r) => ({ regex: r })),
  },
  { weight: 1, arbitrary: fc.constantFrom("https://", "http://localhost").map((p) => ({ prefix: p })) },
);

const urlCondition = fc.oneof(
  { weight: 4, arbitrary: urlLeaf },
  { weight: 1, arbitrary: urlLeaf.map((l) => ({ not: l })) },
);

function urlTools(): string {
  return JSON.stringify({
    tools: [
      {
        name: "fetch",
        description: "Fetch a URL.",
        input_schema: {
          type: "object",
          properties: { url: { type: "string", minLength: 8, maxLength: 2048 } },
          required: ["url"],
          additionalProperties: false,
        },
      },
    ],
  });
}

/** A tool of these argument properties (those in `required` required). */
function toolOf(name: string, properties: Record<string, unknown>, required: readonly string[]): string {
  return JSON.stringify({
    tools: [
      {
        name,
        description: `The tool ${name}.`,
        input_schema: { type: "object", properties, required, additionalProperties: false },
      },
    ],
  });
}

/** A condition on one or more of these fields (each field's operators from its own arbitrary). */
function conditionOn(
  fields: Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>>,
): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(fields);
  return fc
    .subarray(names, { minLength: 1, maxLength: Math.min(2, names.length) })
    .chain((chosen) =>
      fc
        .tuple(...chosen.map((n) => fields[n] as fc.Arbitrary<Record<string, unknown>>))
        .map((ops) => Object.fromEntries(chosen.map((n, i) => [n, ops[i]]))),
    );
}

function family(
  name: string,
  tool: string,
  tools: string,
  fields: Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>>,
  seed: number,
  count: number,
): AnswerCase[] {
  const condition = conditionOn(fields);
  const scenario = fc.record({
    rules: fc.array(fc.record({ decision: ACTION, when: condition }), { minLength: 1, maxLength: 4 }),
    otherwise: fc.option(ACTION, { nil: undefined }),
    properties: fc.array(
      fc.record({ where: fc.option(condition, { freq: 5, nil: undefined }), kind: KIND, action: ACTION }),
      { minLength: 2, maxLength: 4 },
    ),
  });
  return fc.sample(scenario, { seed, numRuns: count }).map((s, n) => ({
    name: `${name} ${n}`,
    tools,
    policy: JSON.stringify({
      version: 1,
      rules: s.rules.map((r, i) => ({
        id: `r${i}`,
        tools: [tool],
        decision: r.decision,
        when: r.when,
        reason: `rule ${i}`,
      })),
      ...(s.otherwise === undefined ? {} : { otherwise: { [tool]: s.otherwise } }),
    }),
    properties: s.properties.map((p) => ({
      ...(p.where === undefined ? {} : { where: p.where }),
      kind: p.kind,
      action: p.action,
    })),
  }));
}

const COMMAND_FIELD = { type: "string", minLength: 1, maxLength: 512 };
const PATH_FIELD = { type: "string", minLength: 1, maxLength: 4096 };

/** The corpus: `count` cases of each family. */
export function answerCorpus(count: number): AnswerCase[] {
  return [
    ...family("shell", "run_shell", shellTools(), { command: commandCondition }, 20261207, count),
    ...family("path", "read_file", readFileTools(), { path: pathCondition }, 20261208, count),
    ...family("url", "fetch", urlTools(), { url: urlCondition }, 20261209, count),
    ...family(
      "shell in a folder",
      "run",
      toolOf("run", { command: COMMAND_FIELD, cwd: PATH_FIELD }, ["command"]),
      { command: commandCondition, cwd: pathCondition },
      20261210,
      count,
    ),
    ...family(
      "paths",
      "read_files",
      toolOf("read_files", { paths: { type: "array", items: PATH_FIELD, minItems: 1, maxItems: 8 } }, [
        "paths",
      ]),
      { paths: fc.tuple(fc.constantFrom("any", "all"), pathLeaf).map(([op, leaf]) => ({ [op]: leaf })) },
      20261211,
      count,
    ),
    ...family(
      "narrow shell",
      "run_shell",
      toolOf(
        "run_shell",
        { command: { type: "string", minLength: 1, maxLength: 40, pattern: "^[a-z0-9 ./|;&>'-]*$" } },
        ["command"],
      ),
      { command: commandCondition },
      20261212,
      count,
    ),
  ];
}
