/** Helpers for tests that run the built package (`dist/`) as a user's Node would. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The built entry of `toolgate/runtime`. */
export const RUNTIME_ENTRY = join(ROOT, "dist", "runtime", "index.js");

/** The built entry of `toolgate/compiled` (what compiled modules import besides the core). */
export const COMPILED_ENTRY = join(ROOT, "dist", "runtime", "compiled.js");

/** Fails (never skips) when `dist/` has not been built. */
export function assertBuilt(): void {
  for (const entry of [RUNTIME_ENTRY, COMPILED_ENTRY, join(ROOT, "dist", "index.js")]) {
    if (!existsSync(entry)) {
      throw new Error(
        `${entry.slice(ROOT.length)} is missing: run \`npm run build\` before these tests (\`npm test\` does it)`,
      );
    }
  }
}

/** Runs `node ...args` from the repository root. */
export function runNode(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
