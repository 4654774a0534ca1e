// `npm pack` and `npm publish` run this around packing (prepack: strip, postpack: restore). The published
// package.json carries no `prepare` script: `prepare` builds dist/ when `npm ci` runs in a clone of this
// repository, and has nothing to do in an installed package, where npm would list it as an install script.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const BACKUP = "package.json.packing";
const mode = process.argv[2];
if (mode === "strip") {
  const text = readFileSync("package.json", "utf8");
  writeFileSync(BACKUP, text);
  const manifest = JSON.parse(text);
  delete manifest.scripts.prepare;
  writeFileSync("package.json", `${JSON.stringify(manifest, null, 2)}\n`);
} else if (mode === "restore") {
  if (existsSync(BACKUP)) renameSync(BACKUP, "package.json");
} else {
  console.error("usage: node scripts/pack-manifest.mjs strip|restore");
  process.exit(2);
}
