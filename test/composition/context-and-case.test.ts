import { createController, loadPolicy } from "toolgate";
import { describe, expect, it } from "vitest";
import { matchCommand, parseShellCommand } from "../../src/runtime/match/shell.js";
import { ROOT } from "../cli/cli-helpers.js";

describe("caller context is checked against context_schema", () => {
  it("a misspelt or mistyped fact never reaches the policy: the call is refused, nothing runs", async () => {
    const bundle = await loadPolicy({ cwd: ROOT });
    let runs = 0;
    const handler = () => {
      runs++;
      return "ok";
    };
    const handlers = Object.fromEntries(
      [
        "read_file",
        "list_dir",
        "search_text",
        "write_file",
        "apply_patch",
        "run_shell",
        "http_fetch",
        "git_commit",
      ].map((n) => [n, handler]),
    );
    const controller = createController({ bundle, handlers, cwd: ROOT });
    const call = { callId: "c1", toolName: "run_shell", arguments: { command: "git status" } };
    expect(await controller.handle(call, { env: "production" })).toEqual({
      callId: "c1",
      content: "invalid context for run_shell: /env: is not allowed",
      isError: true,
    });
    const wrongType = await controller.handle(call, { environment: 42 });
    expect(wrongType).toMatchObject({ callId: "c1", isError: true });
    expect((wrongType as { content: string }).content).toMatch(
      /^invalid context for run_shell: \/environment: must be string/,
    );
    expect(runs).toBe(0);
    // A valid context decides as usual: production denies the shell, development allows git status.
    expect(await controller.handle(call, { environment: "production" })).toMatchObject({
      isError: true,
      content: expect.stringContaining("no-writes-in-production"),
    });
    expect(await controller.handle(call, { environment: "development" })).toEqual({
      callId: "c1",
      content: "ok",
      isError: false,
    });
    expect(runs).toBe(1);
  });
});

describe("command names that differ only in case", () => {
  it("RM may run rm on a case-insensitive file system: a maybe for deny, never an allow", () => {
    const parsed = parseShellCommand("RM -rf /");
    expect(parsed.ok).toBe(true);
    expect(matchCommand("RM -rf /", [["rm", "-rf"]])).toEqual({ certain: false, possible: true });
    expect(matchCommand("Git status", [["git", "status"]])).toEqual({ certain: false, possible: true });
    expect(matchCommand("git status", [["git", "status"]])).toEqual({ certain: true, possible: true });
    expect(matchCommand("RMDIR x", [["rm", "-rf"]])).toEqual({ certain: false, possible: false });
  });
});

describe("hostile input never crashes the controller", () => {
  it("a validator that throws on the arguments gives an invalid-arguments result, and a null context is refused", async () => {
    const { defineTool, ToolController, ToolPolicy, ToolRegistry, ToolRuntime } = await import("toolgate");
    let runs = 0;
    const tool = defineTool(
      {
        name: "pick",
        description: "Pick a preset.",
        inputSchema: {
          type: "object",
          properties: { preset: { enum: [{ size: 1 }, { size: 2 }] } },
          required: ["preset"],
          additionalProperties: false,
        },
      },
      () => {
        runs++;
        return "picked";
      },
    );
    const controller = new ToolController({
      runtime: new ToolRuntime(new ToolRegistry([tool])),
      policy: new ToolPolicy({ allowedTools: ["pick"] }),
    });
    const hostile = JSON.parse('{"preset": {"valueOf": null}}') as unknown;
    const result = await controller.handle({ callId: "c1", toolName: "pick", arguments: hostile });
    expect(result).toMatchObject({ callId: "c1", isError: true });
    // Enum values are compared as JSON (own keys only, nothing called): the hostile `valueOf` key is plain data,
    // so the validator no longer throws on it; the arguments are simply not one of the allowed values.
    expect((result as { content: string }).content).toBe(
      "invalid arguments for pick: /preset: must be equal to one of the allowed values",
    );
    expect(runs).toBe(0);
    const nullContext = await controller.handle(
      { callId: "c2", toolName: "pick", arguments: { preset: { size: 1 } } },
      null as unknown as Record<string, unknown>,
    );
    expect(nullContext).toEqual({
      callId: "c2",
      content: "invalid context for pick: the context must be an object of facts",
      isError: true,
    });
    expect(
      await controller.handle({ callId: "c3", toolName: "pick", arguments: { preset: { size: 2 } } }),
    ).toEqual({
      callId: "c3",
      content: "picked",
      isError: false,
    });
    expect(runs).toBe(1);
  });
});
