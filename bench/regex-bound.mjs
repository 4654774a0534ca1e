// `node bench/regex-bound.mjs` (after `npm run build`): the cost of one regex answer on a 1 MiB argument for
// the worst lint-clean patterns found, with the engine's work bound (`testBounded`, what `regex` rules use).
// "maybe" means the bound was reached: a policy reads it as a maybe (deny and ask apply, allow does not).
// Prints the median of five runs per pattern, first (cold cache) and warm.

import { compileRegex, REGEX_WORK_BOUND } from "../dist/runtime/match/regex/index.js";

const MiB = 1 << 20;
// [pattern, flags, unit the input repeats]
const CASES = [
  ["(a|b){1,1000}c", "", "ab"],
  ["[ab]{1,3000}c", "", "ab"],
  ["a{5000}b", "", "a"],
  ["(?:a?){3000}b", "", "a"],
  ["(?:(?:a|b){1,40}){1,40}c", "", "ab"],
  ["[\\s\\S]{1,4000}z", "", "q"],
  ["(a|b)*a(a|b){12}x", "", "abbab"],
  ["(?:[a-z]{1,20}\\.){1,20}com", "i", "ab."],
  ["(?:a|b){1,1000}c\\b", "", "ab"],
  ["\\w+@\\w+\\.com", "", "a"],
  ["^(ls|pwd)$", "", "l"],
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

console.log(`work bound: ${REGEX_WORK_BOUND} steps; input: 1 MiB`);
console.log("| pattern | answer | cold ms | warm ms |");
console.log("| --- | --- | ---: | ---: |");
for (const [pattern, flags, unit] of CASES) {
  const input = unit.repeat(Math.ceil(MiB / unit.length)).slice(0, MiB);
  const cold = [];
  const warm = [];
  let answer;
  for (let i = 0; i < 5; i++) {
    const compiled = compileRegex(pattern, flags);
    if (!compiled.ok) throw new Error(`${pattern}: ${compiled.message}`);
    let t = performance.now();
    answer = compiled.regex.testBounded(input);
    cold.push(performance.now() - t);
    t = performance.now();
    compiled.regex.testBounded(input);
    warm.push(performance.now() - t);
  }
  const shown = answer === undefined ? "maybe" : String(answer);
  console.log(
    `| \`/${pattern}/${flags}\` | ${shown} | ${median(cold).toFixed(1)} | ${median(warm).toFixed(1)} |`,
  );
}
