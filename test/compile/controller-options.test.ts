/**
 * The compiled module's `createController` takes the same bounds as the one built from YAML: a ceiling on a
 * call's argument bytes, and a handler timeout.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadPolicy } from "toolgate";
import { afterAll, describe, expect, it } from "vitest";
import { importCompiled, tempDir, writeCompiled } from "./compiled-module.js";

const scratch = tempDir("compiled-options");
afterAll(() => scratch.remove());

async function compiledEcho() {
  const dir = scratch.dir;
  writeFileSync(join(dir, "toolgate.config.yaml"), "tools: [tools.yaml]\npolicy: policy.yaml\n");
  writeFileSync(
    join(dir, "tools.yaml"),
    [
      "tools:",
      "  - name: echo",
      "    description: Print a text.",
      "    input_schema:",
      "      type: object",
      "      properties: { text: { type: string, maxLength: 100000 } }",
      "      required: [text]",
      "      additionalProperties: false",
      "",
    ].join("\n"),
  );
  writeFileSync(join(dir, "policy.yaml"), "version: 1\nallow: [echo]\n");
  const bundle = await loadPolicy({ config: join(dir, "toolgate.config.yaml") });
  return importCompiled(await writeCompiled(bundle, dir));
}

describe("compiled createController options", () => {
  it("refuses arguments over maxArgumentBytes, and runs nothing", async () => {
    const mod = await compiledEcho();
    let ran = 0;
    const controller = mod.createController({
      handlers: {
        echo: ({ text }: { text: string }) => {
          ran++;
          return text;
        },
      },
      maxArgumentBytes: 64,
    } as never);
    const small = await controller.handle({ callId: "c1", toolName: "echo", arguments: { text: "hi" } });
    expect(small).toEqual({ callId: "c1", content: "hi", isError: false });
    const big = await controller.handle({
      callId: "c2",
      toolName: "echo",
      arguments: { text: "x".repeat(200) },
    });
    expect(big).toMatchObject({ callId: "c2", isError: true });
    expect((big as { content: string }).content).toContain("maxArgumentBytes");
    expect(ran).toBe(1);
  });

  it("gives an error result when the handler does not settle within handlerTimeoutMs", async () => {
    const mod = await compiledEcho();
    const controller = mod.createController({
      handlers: { echo: () => new Promise<string>(() => {}) },
      handlerTimeoutMs: 20,
    } as never);
    const result = await controller.handle({ callId: "c3", toolName: "echo", arguments: { text: "hi" } });
    expect(result).toMatchObject({ callId: "c3", isError: true });
    expect((result as { content: string }).content).toContain("handlerTimeoutMs");
  });
});
