import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// The tests that exercise the decision core, for `npm run test:mutation` (stryker.config.mjs): Stryker runs them
// once per mutant, so the suites that spawn the CLI, build the package or need PostgreSQL stay out.
// TOOLGATE_MUTATION_TESTS (comma-separated globs) narrows them further for a run on one source file.
const CORE_TESTS = [
  "test/runtime/approvals.test.ts",
  "test/runtime/condition*.test.ts",
  "test/runtime/operators.test.ts",
  "test/runtime/controller.test.ts",
  "test/runtime/controller.properties.test.ts",
  "test/runtime/decision-core.test.ts",
  "test/runtime/glob-prefilter.test.ts",
  "test/runtime/policy.test.ts",
  "test/runtime/policy-matches.test.ts",
  "test/runtime/policy-properties.test.ts",
  "test/runtime/match/**/*.test.ts",
  "test/policies/**/*.test.ts",
  "test/composition/context-and-case.test.ts",
  "test/stores/jsonl-audit-sink.test.ts",
];

// The verify engine's own tests (stryker.verify.config.mjs sets TOOLGATE_MUTATION_SCOPE=verify); the property
// file's diagnostics and schema are the loader's side (and change the working directory, which workers refuse).
const VERIFY_TESTS = [
  "test/verify/**/*.test.ts",
  "test/diff/engine-diff.test.ts",
  "test/diff/engine-diff-compound.test.ts",
];
const NOT_VERIFY_ENGINE = [
  "test/verify/property-diagnostics.test.ts",
  "test/verify/properties-schema.test.ts",
];

const narrowed = process.env.TOOLGATE_MUTATION_TESTS?.split(",").filter((glob) => glob !== "");

// Not mergeConfig: it would append these globs to the base config's `test/**/*.test.ts`.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include:
      narrowed !== undefined && narrowed.length > 0
        ? narrowed
        : process.env.TOOLGATE_MUTATION_SCOPE === "verify"
          ? VERIFY_TESTS
          : CORE_TESTS,
    // The shell oracle runs five shells over 20,000 commands: minutes per mutant. It runs in `npm test` and
    // in its long form (`npm run test:oracle`); the matcher's own tests stand for it here.
    exclude: [
      "test/runtime/match/shell-oracle.test.ts",
      ...(process.env.TOOLGATE_MUTATION_SCOPE === "verify" ? NOT_VERIFY_ENGINE : []),
    ],
  },
});
