// Draws a random sample of the verify engine's code lines for a mutation run (docs/verify-mutation.md): prints
// the `--mutate` list of `count` lines drawn uniformly from the code lines (not blank, not a comment, not an
// import, not a lone bracket) of the files stryker.verify.config.mjs mutates, leaving out the lines of earlier
// samples (files of `--mutate` lists given with `--without`).
//
//   node scripts/mutation-sample.mjs --seed 7 --count 160 [--without scripts/mutation-samples/A.txt]
//   npx stryker run stryker.verify.config.mjs --mutate "$(node scripts/mutation-sample.mjs --seed 7)" --concurrency 2
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import config from "../stryker.verify.config.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
}

/** The code lines of a file, 1-based. */
function codeLines(file) {
  const out = [];
  let inComment = false;
  readFileSync(`${ROOT}${file}`, "utf8")
    .split("\n")
    .forEach((line, i) => {
      const text = line.trim();
      if (inComment) {
        if (text.includes("*/")) inComment = false;
        return;
      }
      if (text.startsWith("/*")) {
        inComment = !text.includes("*/");
        return;
      }
      if (text === "" || text.startsWith("//") || text.startsWith("*")) return;
      if (text.startsWith("import ") || text.startsWith("} from") || /^[\])}{;,]+$/.test(text)) return;
      out.push(i + 1);
    });
  return out;
}

/** mulberry32: a small seeded generator, the same sequence on every machine. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const seed = Number(option("--seed", "1"));
const count = Number(option("--count", "160"));
const without = new Set();
for (let i = 0; i < process.argv.length; i++) {
  if (process.argv[i] !== "--without") continue;
  for (const spec of readFileSync(process.argv[i + 1], "utf8")
    .trim()
    .split(","))
    without.add(spec.replace(/-\d+$/, ""));
}
const lines = config.mutate
  .flatMap((file) => codeLines(file).map((line) => `${file}:${line}`))
  .filter((line) => !without.has(line));
// A partial Fisher–Yates shuffle: the first `count` places hold a uniform sample.
const random = generator(seed);
const n = Math.min(count, lines.length);
for (let i = 0; i < n; i++) {
  const j = i + Math.floor(random() * (lines.length - i));
  [lines[i], lines[j]] = [lines[j], lines[i]];
}
const byPlace = (a, b) => {
  const [fa, la] = a.split(":");
  const [fb, lb] = b.split(":");
  return fa < fb ? -1 : fa > fb ? 1 : Number(la) - Number(lb);
};
console.error(`${n} of ${lines.length} code lines`);
console.log(
  lines
    .slice(0, n)
    .sort(byPlace)
    .map((line) => `${line}-${line.split(":")[1]}`)
    .join(","),
);
