// The framework examples run from a fresh clone (after the build), offline, and print what the policy decides.
import { describe, expect, it } from "vitest";
import { assertBuilt, runNode } from "./built-package.js";

describe("the framework examples", () => {
  it("examples/ai-sdk: the read runs, the .env is refused, the note runs after the person's approval", () => {
    assertBuilt();
    const { status, stdout, stderr } = runNode(["examples/ai-sdk/main.mjs"]);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(stdout.split("\n")).toEqual([
      "c1 read_file -> # notes agent",
      "c2 read_file -> refused: denied by policy: secret files are never read (rule: no-dotenv)",
      "c3 write_note -> waits for a person",
      "c3 write_note -> noted: ship it",
      "model: Done: read the README and noted it.",
      "",
    ]);
  });

  it("examples/langchain: the graph pauses for the note and resumes on the approval", () => {
    assertBuilt();
    const { status, stdout, stderr } = runNode(["examples/langchain/main.mjs"]);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(stdout.split("\n")).toEqual([
      'write_note {"text":"ship it"} -> waits for a person: notes are shared with the team, so a person confirms each one',
      "c1 read_file -> success: # notes agent",
      "c2 read_file -> error: denied by policy: secret files are never read (rule: no-dotenv)",
      "c3 write_note -> success: noted: ship it",
      "model: Done: read the README and noted it.",
      "",
    ]);
  });

  it("examples/claude-agent-sdk: the SDK's permission callback decides with the Claude Code pack", () => {
    assertBuilt();
    const { status, stdout, stderr } = runNode(["examples/claude-agent-sdk/main.mjs"]);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    const lines = stdout.split("\n");
    expect(lines.map((line) => line.split(":")[0])).toEqual([
      "Read -> allow",
      "Read -> deny",
      "Bash -> allow",
      "Bash -> deny",
      "Write -> allow",
      "WebFetch -> deny",
      "",
    ]);
  });
});
