// Mutation testing of the decision core: `npm run test:mutation` (the whole scope, long), or one file:
//   npx stryker run --mutate src/runtime/condition.ts
// Every surviving mutant is either killed by a new test or explained as equivalent.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  coverageAnalysis: "perTest",
  mutate: [
    "src/runtime/policy.ts",
    // Split out of policy.ts: compiling statements and the per-tool index.
    "src/runtime/compiled-statements.ts",
    "src/runtime/condition.ts",
    "src/runtime/match/**/*.ts",
    "src/runtime/approvals.ts",
    // Audit verification only (the hashing helpers, parseLine, verifyAuditLog), not the writing sink.
    "src/stores/jsonl-audit-sink.ts:90-110",
    "src/stores/jsonl-audit-sink.ts:414-589",
  ],
  concurrency: 2,
  timeoutMS: 10_000,
  dryRunTimeoutMinutes: 30,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 95, low: 90, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};
