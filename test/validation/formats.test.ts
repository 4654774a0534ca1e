/**
 * `format` in input schemas is checked, never ignored: a known format validates (the same definitions in
 * the loader, `defineTool` and compiled modules, through `ajvFormat`), an unknown one is refused.
 */

import { fullFormats } from "ajv-formats/dist/formats.js";
import { defineTool } from "toolgate";
import { ajvFormat } from "toolgate/compiled";
import { describe, expect, it } from "vitest";
import { SUPPORTED_FORMATS } from "../../src/validation/argument-validator.js";

function tool(format: string, type = "string") {
  return defineTool(
    {
      name: "t",
      description: "formatted",
      inputSchema: { type: "object", properties: { v: { type, format } }, additionalProperties: false },
    },
    () => "ok",
  );
}

describe("format in input schemas", () => {
  it("checks a known format", () => {
    const email = tool("email");
    expect(email.validateArguments({ v: "ada@example.org" })).toEqual({ ok: true });
    expect(email.validateArguments({ v: "ada" })).toEqual({
      ok: false,
      issues: [{ path: "/v", message: 'must match format "email"' }],
    });
    expect(tool("date").validateArguments({ v: "2026-02-30" }).ok).toBe(false);
    expect(tool("int32", "integer").validateArguments({ v: 2 ** 31 }).ok).toBe(false);
  });

  it("refuses an unknown format when the schema is compiled", () => {
    expect(() => tool("emial")).toThrow(/unknown format "emial"/);
  });

  it("compiled modules get the loader's very definitions, and nothing else", () => {
    expect(SUPPORTED_FORMATS).toEqual(Object.keys(fullFormats).sort());
    for (const name of SUPPORTED_FORMATS) {
      expect(ajvFormat(name), name).toBe((fullFormats as Record<string, unknown>)[name]);
    }
    expect(() => ajvFormat("emial")).toThrow(/unknown format "emial"/);
    expect(() => ajvFormat("__proto__")).toThrow(/unknown format/);
  });
});
