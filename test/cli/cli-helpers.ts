import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { vi } from "vitest";
import { main } from "../../src/cli/main.js";

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The built CLI entry. */
export const BIN = join(ROOT, "bin/toolgate.js");
/** The built package entry, as a file URL for child scripts. */
export const DIST_INDEX = new URL(`file://${join(ROOT, "dist/index.js")}`).href;

/** Fails (never skips) when the package has not been built. */
export function assertBuilt(): void {
  if (!existsSync(join(ROOT, "dist/cli/main.js"))) {
    throw new Error("dist/ is missing: run `npm run build` (npm test does it first)");
  }
}

/** Writes a set of files into a new temporary directory and returns it. */
export function writeTree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-cli-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** Runs the CLI in this process (no build needed) and returns its exit code and what it wrote. */
export async function runCli(args: readonly string[]) {
  let stdout = "";
  let stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

/** Runs the built CLI in a child process, synchronously. */
export function toolgate(args: readonly string[], cwd: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts a child `node` process running an ES module given as source text. */
export function startScript(source: string, cwd: string) {
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  const waitFor = async (pattern: RegExp, ms = 20_000): Promise<RegExpMatchArray> => {
    const start = Date.now();
    for (;;) {
      const match = stdout.match(pattern);
      if (match) return match;
      if (Date.now() - start > ms)
        throw new Error(`timed out waiting for ${pattern}; stdout: ${stdout}; stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return { child, exited, waitFor, output: () => ({ stdout, stderr }) };
}

/** A small configuration with one allowed and one asked tool, and durable stores. */
export function approvalConfig(): Record<string, string> {
  return {
    "toolgate.config.yaml": [
      "tools: [tools.yaml]",
      "policy: policy.yaml",
      "approvals: sqlite:state/approvals.db",
      "audit: { sink: jsonl:state/audit.jsonl }",
      "",
    ].join("\n"),
    "tools.yaml": [
      "tools:",
      "  - name: write_note",
      "    description: Write a note.",
      "    input_schema:",
      "      type: object",
      "      properties: { text: { type: string, maxLength: 200 } }",
      "      required: [text]",
      "      additionalProperties: false",
      "",
    ].join("\n"),
    "policy.yaml": [
      "version: 1",
      "ask: [write_note]",
      "reasons:",
      "  write_note: notes need a person's approval",
      "",
    ].join("\n"),
  };
}

/**
 * The characters of `text` that a terminal acts on or that reorder it (C0 but newline, DEL, C1, bidirectional
 * controls), written independently of the escaping under test.
 */
export function terminalControls(text: string): string[] {
  return [...text].filter((ch) => {
    const c = ch.codePointAt(0) as number;
    return (
      (c < 0x20 && c !== 0x0a) ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x061c ||
      c === 0x200e ||
      c === 0x200f ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069)
    );
  });
}
