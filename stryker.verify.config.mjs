// Mutation testing of the verify engine (`npm run test:mutation:verify`, long), or one file:
//   npx stryker run stryker.verify.config.mjs --mutate src/verify/dfa.ts
// The tests are those of test/verify and the engine diff (vitest.mutation.config.ts, scope "verify"), with fewer
// generated runs per property test than `npm test` uses, so that one mutant takes seconds, not minutes.
import base from "./stryker.config.mjs";

process.env.TOOLGATE_MUTATION_SCOPE ??= "verify";
process.env.TOOLGATE_VERIFY_RUNS ??= "80";
process.env.TOOLGATE_COMPOUND_RUNS ??= "40";
process.env.TOOLGATE_URL_RUNS ??= "150";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  ...base,
  mutate: [
    "src/verify/alphabet.ts",
    "src/verify/automata.ts",
    "src/verify/decision-model.ts",
    "src/verify/dfa.ts",
    "src/verify/facts.ts",
    "src/verify/field-domain.ts",
    "src/verify/formula.ts",
    "src/verify/path-language.ts",
    "src/verify/plain-command.ts",
    "src/verify/regex-language.ts",
    "src/verify/schema-facts.ts",
    "src/verify/search.ts",
    "src/verify/url-language.ts",
    "src/verify/verify-properties.ts",
    "src/verify/witness.ts",
    "src/verify/diff-regions.ts",
  ],
  timeoutMS: 20_000,
  htmlReporter: { fileName: "reports/mutation-verify/mutation.html" },
  jsonReporter: { fileName: "reports/mutation-verify/mutation.json" },
};
