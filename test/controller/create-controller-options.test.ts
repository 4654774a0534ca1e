import { createController, loadPolicy } from "toolgate";
import { describe, expect, it } from "vitest";
import { ROOT } from "../cli/cli-helpers.js";

const TOOLS = [
  "read_file",
  "list_dir",
  "search_text",
  "write_file",
  "apply_patch",
  "run_shell",
  "http_fetch",
  "git_commit",
];

describe("createController passes the boundary options to the controller", () => {
  it("maxArgumentBytes and handlerTimeoutMs", async () => {
    const bundle = await loadPolicy({ cwd: ROOT });
    const handlers = Object.fromEntries(
      TOOLS.map((name) => [name, () => new Promise<string>((done) => setTimeout(() => done("late"), 1_000))]),
    );
    const controller = createController({
      bundle,
      handlers,
      cwd: ROOT,
      maxArgumentBytes: 64,
      handlerTimeoutMs: 10,
    });
    const call = (path: string) => ({ callId: "c1", toolName: "read_file", arguments: { path } });
    expect(await controller.handle(call("x".repeat(100)), { environment: "development" })).toEqual({
      callId: "c1",
      content:
        "the arguments for read_file are larger than 64 bytes, the limit (maxArgumentBytes); " +
        "send smaller arguments, or raise maxArgumentBytes in the controller's options",
      isError: true,
    });
    expect(await controller.handle(call("src/index.ts"), { environment: "development" })).toMatchObject({
      isError: true,
      content: expect.stringContaining("did not finish within 10 ms (handlerTimeoutMs)"),
    });
  });
});
