/**
 * The emit helper: a tool name or description can never break out of a string, a comment or an
 * identifier in generated code.
 */
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  code,
  docComment,
  EmitError,
  ident,
  joinCode,
  literal,
  propertyKey,
  stringLiteral,
} from "../../src/codegen/emit.js";

const HOSTILE = [
  'a"b',
  "a\\b",
  "*/ evil() /*",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template placeholder is the hostile input here
  "${process.exit(1)}",
  "line\nbreak",
  "carriage\rreturn",
  "ls\u2028ps\u2029",
  "</script><script>alert(1)</script>",
  'require("fs")',
  "`tick`",
  "\u0000nul",
];

/** Syntax errors of a TypeScript source text. */
function syntaxErrors(source: string): string[] {
  const file = ts.createSourceFile("x.ts", source, ts.ScriptTarget.ES2022, true);
  // parseDiagnostics is internal but stable; it is what `tsc` reports as syntax errors.
  const diagnostics = (file as unknown as { parseDiagnostics: readonly ts.Diagnostic[] }).parseDiagnostics;
  return diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("ident", () => {
  it("accepts identifiers and refuses everything else, reserved words included", () => {
    expect(String(ident("ReadFileArgs"))).toBe("ReadFileArgs");
    expect(String(ident("_x$1"))).toBe("_x$1");
    for (const bad of [...HOSTILE, "", "1a", "a-b", "a b", "class", "delete", "eval", "ünïcode"]) {
      expect(() => ident(bad), bad).toThrow(EmitError);
    }
  });
});

describe("string literals", () => {
  it("round-trip every string through JSON, with no raw line separators and no require(", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom(...HOSTILE)), (value) => {
        const text = String(stringLiteral(value));
        expect(JSON.parse(text)).toBe(value);
        expect(text).not.toMatch(/[\n\r\u2028\u2029]/);
        expect(text).not.toContain("require(");
      }),
      { numRuns: 500 },
    );
  });

  it("are what a plain string interpolates to, and stay one expression", () => {
    for (const value of HOSTILE) {
      const source = String(code`export const x = ${value};\n`);
      expect(syntaxErrors(source), value).toEqual([]);
      const file = ts.createSourceFile("x.ts", source, ts.ScriptTarget.ES2022, true);
      expect(file.statements).toHaveLength(1);
    }
  });
});

describe("docComment", () => {
  it("keeps any text inside one comment before the next declaration", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom(...HOSTILE)), (text) => {
        const source = `${docComment(text)}export const after = 1;\n`;
        expect(syntaxErrors(source)).toEqual([]);
        const file = ts.createSourceFile("x.ts", source, ts.ScriptTarget.ES2022, true);
        expect(file.statements).toHaveLength(1);
        expect(file.statements[0]?.getText()).toBe("export const after = 1;");
      }),
      { numRuns: 500 },
    );
  });

  it("writes each line of the text, with star-slash neutralised", () => {
    expect(String(docComment("first */ line\nsecond\u2028third"))).toBe(
      "/**\n * first *\\/ line\n * second\n * third\n */\n",
    );
    expect(String(docComment(""))).toBe("");
  });
});

describe("literal, propertyKey and joinCode", () => {
  it("literal writes JSON data and refuses what JSON cannot hold", () => {
    expect(String(literal({ a: ["x\u2028", 1, true, null] }))).toBe('{"a":["x\\u2028",1,true,null]}');
    expect(() => literal({ a: undefined })).toThrow(EmitError);
    expect(() => literal([Number.NaN])).toThrow(EmitError);
    expect(() => literal(() => 1)).toThrow(EmitError);
    expect(() => code`${Number.POSITIVE_INFINITY}`).toThrow(EmitError);
  });

  it("propertyKey quotes what is not an identifier name", () => {
    expect(String(propertyKey("read_file"))).toBe("read_file");
    expect(String(propertyKey("delete"))).toBe("delete");
    expect(String(propertyKey("a-b"))).toBe('"a-b"');
    expect(String(propertyKey('x"}; evil(); {"'))).toBe('"x\\"}; evil(); {\\""');
  });

  it("joinCode takes punctuation separators only", () => {
    expect(String(joinCode([ident("a"), ident("b")], " | "))).toBe("a | b");
    expect(() => joinCode([ident("a")], "evil()")).toThrow(EmitError);
  });
});
