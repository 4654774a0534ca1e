/**
 * A compiled module carries no ajv code for a schema `planValidator` takes: it names the schema "plan", and at
 * import the runtime builds the plan validator from the schema in the module's (fingerprinted) data. The
 * module's validators decide as the loaded controller's, planned or not.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileController } from "../../src/compile/compile-controller.js";
import { createController } from "../../src/composition/create-controller.js";
import { loadPolicyResultSync } from "../../src/config/load-policy.js";
import { importCompiled, tempDir, writeCompiled } from "./compiled-module.js";

const TOOLS = `tools:
  - name: read_file
    description: Reads a file.
    input_schema:
      type: object
      properties:
        path: { type: string, minLength: 1, maxLength: 8, pattern: "^[a-z/.]+$" }
        lines: { type: array, items: { type: integer, minimum: 1 }, uniqueItems: true, maxItems: 3 }
      required: [path]
      additionalProperties: false
  - name: send_mail
    description: Sends a mail.
    input_schema:
      type: object
      properties:
        to: { type: string, format: email }
      required: [to]
      additionalProperties: false
`;

const POLICY = `version: 1
allow: [read_file, send_mail]
`;

describe("schemas in planValidator's subset, compiled", () => {
  it("have no ajv code in the module, and decide as the loaded controller does", async () => {
    const { dir, remove } = tempDir("planned-schemas");
    try {
      writeFileSync(join(dir, "tools.yaml"), TOOLS);
      writeFileSync(join(dir, "policy.yaml"), POLICY);
      writeFileSync(
        join(dir, "toolgate.config.yaml"),
        "tools: [tools.yaml]\npolicy: policy.yaml\ncontext_schema: { type: object, properties: { user: { type: string } } }\n",
      );
      const loaded = loadPolicyResultSync({ config: join(dir, "toolgate.config.yaml"), cwd: dir });
      if (loaded.bundle === undefined) throw new Error(JSON.stringify(loaded.diagnostics));
      const text = (await compileController(loaded.bundle)).module;
      expect(text).toContain('["read_file", "plan"]');
      expect(text).toContain('context: "plan"');
      // Only send_mail (a format) keeps ajv standalone code.
      expect(text.match(/function validate\d+\(/g)?.length).toBe(1);
      const module = await importCompiled(await writeCompiled(loaded.bundle, dir));
      const handlers = { read_file: () => "read", send_mail: () => "sent" };
      const compiled = module.createController({ handlers, onAsk: "deny" });
      const fromYaml = createController({
        bundle: loaded.bundle,
        handlers,
        onAsk: "deny",
        validators: loaded.validators,
      });
      const calls: [string, unknown][] = [
        ["read_file", { path: "a/b.txt" }],
        ["read_file", { path: "" }],
        ["read_file", { path: "😀😀😀😀😀😀😀😀😀", extra: 1 }],
        ["read_file", { path: "ab", lines: [1, 2, 1, 0] }],
        ["read_file", JSON.parse('{"path": "a", "__proto__": 1}')],
        ["read_file", []],
        ["send_mail", { to: "a@example.com" }],
        ["send_mail", { to: "not a mail" }],
      ];
      let invalid = 0;
      for (const [tool, args] of calls) {
        const call = { callId: "c", toolName: tool, arguments: args };
        const a = await compiled.handle(call, { user: "u" } as never);
        expect(a, `${tool} ${JSON.stringify(args)}`).toEqual(
          await fromYaml.handle(call, { user: "u" } as never),
        );
        if (JSON.stringify(a).includes("must") || JSON.stringify(a).includes("is not allowed")) invalid++;
      }
      expect(invalid).toBeGreaterThan(2);
      // The context goes through the planned context validator too.
      const call = { callId: "c", toolName: "read_file", arguments: { path: "a" } };
      const badContext = await compiled.handle(call, { user: 1 } as never);
      expect(badContext).toEqual(await fromYaml.handle(call, { user: 1 } as never));
      expect(JSON.stringify(badContext)).toContain("context");
    } finally {
      remove();
    }
  });
});
