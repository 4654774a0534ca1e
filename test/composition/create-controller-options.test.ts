import {
  type ArgumentValidator,
  createController,
  loadPolicy,
  loadPolicyResult,
  type PolicyBundle,
} from "toolgate";
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

describe("createController takes the validators a load compiled, explicitly", () => {
  it("uses the validators handed over, and compiles the bundle's own without them", async () => {
    const loaded = await loadPolicyResult({ cwd: ROOT });
    const bundle = loaded.bundle as PolicyBundle;
    expect([...loaded.validators.keys()]).toEqual(bundle.tools.map((tool) => tool.name));
    const handlers = Object.fromEntries(TOOLS.map((name) => [name, () => "ran"]));
    // A validator that refuses everything shows which validators the controller runs.
    const refuseAll: ArgumentValidator = () => ({
      ok: false,
      issues: [{ path: "", message: "refused here" }],
    });
    const handed = new Map([...loaded.validators].map(([name]) => [name, refuseAll]));
    const call = { callId: "c1", toolName: "read_file", arguments: { path: "src/index.ts" } };
    const context = { environment: "development" };
    const withHanded = createController({ bundle, handlers, cwd: ROOT, validators: handed });
    expect(await withHanded.handle(call, context)).toMatchObject({
      isError: true,
      content: expect.stringContaining("refused here"),
    });
    const own = createController({ bundle, handlers, cwd: ROOT });
    expect(await own.handle(call, context)).toEqual({ callId: "c1", content: "ran", isError: false });
    // The load's validators are the same checks: they decide as the bundle's own.
    const fromLoad = createController({ bundle, handlers, cwd: ROOT, validators: loaded.validators });
    expect(await fromLoad.handle(call, context)).toEqual({ callId: "c1", content: "ran", isError: false });
  });

  it("a bundle handed over without a validator for a tool does not make that tool callable", async () => {
    const loaded = await loadPolicyResult({ cwd: ROOT });
    const bundle = loaded.bundle as PolicyBundle;
    const handlers = Object.fromEntries(TOOLS.map((name) => [name, () => "ran"]));
    const partial = new Map([...loaded.validators].filter(([name]) => name !== "read_file"));
    expect(() => createController({ bundle, handlers, cwd: ROOT, validators: partial })).toThrow(
      /read_file has no argument validator/,
    );
  });
});
