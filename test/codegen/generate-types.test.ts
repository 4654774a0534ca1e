import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateTypes, loadPolicy } from "toolgate";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain JS shared with the benchmarks
import { writeSyntheticConfig } from "../../bench/synthetic-config.mjs";
import { shieldPrototypeKeys, typingSchema } from "../../src/codegen/generate-types.js";
import { tempDir } from "../compile/compiled-module.js";
import { assertBuilt, ROOT } from "../package/built-package.js";

const HOSTILE = "test/fixtures/compile/hostile/toolgate.config.yaml";

function parse(source: string): ts.SourceFile {
  return ts.createSourceFile("generated.ts", source, ts.ScriptTarget.ES2022, true);
}

function syntaxErrors(file: ts.SourceFile): string[] {
  const diagnostics = (file as unknown as { parseDiagnostics: readonly ts.Diagnostic[] }).parseDiagnostics;
  return diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

/** Names of the top-level declarations, in order. */
function declared(file: ts.SourceFile): string[] {
  return file.statements.flatMap((s) => {
    if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) return [s.name.text];
    if (ts.isVariableStatement(s)) return s.declarationList.declarations.map((d) => d.name.getText());
    return [];
  });
}

function jsDocOf(file: ts.SourceFile, name: string): string {
  const node = file.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === name);
  if (node === undefined) throw new Error(`no interface ${name}`);
  return ts
    .getJSDocCommentsAndTags(node)
    .map((d) => ts.getTextOfJSDocComment(d.comment) ?? "")
    .join("\n");
}

describe("generateTypes on the reference policy", () => {
  it("is deterministic: the same bytes twice, and from another working directory", async () => {
    const bundle = await loadPolicy();
    const first = await generateTypes(bundle);
    expect(await generateTypes(bundle)).toBe(first);
    const elsewhere = await loadPolicy({ cwd: join(ROOT, "policies"), config: "../toolgate.config.yaml" });
    expect(elsewhere.configFile).not.toBe(bundle.configFile);
    expect(await generateTypes(elsewhere)).toBe(first);
    expect(first).not.toContain(ROOT);
    expect(first).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it("turns the tool's description and each field's description into JSDoc", async () => {
    const text = await generateTypes(await loadPolicy());
    expect(text).toContain(
      [
        "/**",
        " * Read a UTF-8 text file inside the workspace.",
        " */",
        "export interface ReadFileArgs {",
        "  /**",
        "   * File path relative to the workspace root.",
        "   */",
        "  path: string;",
        "  /**",
        "   * Read at most this many bytes.",
        "   */",
        "  max_bytes?: number;",
        "}",
      ].join("\n"),
    );
    expect(text).toContain('import type { ToolContext } from "toolgate/runtime";');
    expect(text).toContain("  read_file: ReadFileArgs;\n");
    expect(text).toContain(
      "export type ToolHandlers = {\n  [K in ToolName]: (args: ToolArgs[K], ctx: ToolContext) => string | Promise<string>;\n};",
    );
    expect(text).toMatch(/export const typesFingerprint = "sha256:[0-9a-f]{64}";/);
  });
});

describe("generateTypes on hostile names and descriptions", () => {
  let text: string;
  let dir: string;
  let remove: () => void;
  beforeAll(async () => {
    text = await generateTypes(await loadPolicy({ config: HOSTILE }));
    ({ dir, remove } = tempDir("codegen-hostile"));
  });
  afterAll(() => remove());

  it("parses, and declares exactly the expected names", () => {
    const file = parse(text);
    expect(syntaxErrors(file)).toEqual([]);
    expect(declared(file)).toEqual([
      "typesFingerprint",
      "NeverArgs",
      "ABCArgs",
      "Legacy07Args",
      "ToStringArgs",
      "ToolArgs",
      "ToolName",
      "ToolHandlers",
    ]);
  });

  it("keeps every description inside its comment, star-slash neutralised", () => {
    const file = parse(text);
    const doc = jsDocOf(file, "ToStringArgs");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder is the hostile text
    expect(doc).toContain("Quote \" single ' backslash \\ end *\\/ start /* template ${process.exit(1)}");
    expect(doc).toContain("</script> <!-- line");
    expect(doc).toContain('PS require("fs") done');
    expect(doc).toContain("root *\\/ description");
    expect(jsDocOf(file, "ABCArgs")).toBe("Dashes *\\/ and underscores \\u0000 in the name");
  });

  it("inlines nested and referenced types, so that no tool's sub-type can clash with another's", () => {
    expect(text).not.toContain("interface Nested");
    expect(text).not.toContain("type Mode");
    expect(text).toContain('mode: "fast" | "slow" | "*/";');
    // Named like Object.prototype members: json-schema-to-typescript would crash on them unshielded.
    expect(text).toContain("constructor?: string;");
    expect(text).toContain("hasOwnProperty?: boolean;");
  });

  it("type-checks against the built toolgate/runtime", () => {
    assertBuilt();
    const file = join(dir, "generated.ts");
    writeFileSync(file, text);
    const program = ts.createProgram([file], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(problems).toEqual([]);
  });
});

describe("typingSchema", () => {
  it("inlines local $refs, breaks cycles into unknown, and drops naming and raw-type keywords", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: "urn:x",
      title: "Root",
      type: "object",
      properties: {
        title: { type: "string", title: "A property named title stays" },
        node: { $ref: "#/$defs/Node" },
        remote: { $ref: "https://example.com/schema.json" },
        raw: { type: "string", tsType: "never; } evil(); {" },
      },
      $defs: { Node: { type: "object", title: "Node", properties: { next: { $ref: "#/$defs/Node" } } } },
    };
    expect(typingSchema(schema)).toEqual({
      type: "object",
      properties: {
        title: { type: "string" },
        node: { type: "object", properties: { next: {} } },
        remote: {},
        raw: { type: "string" },
      },
    });
  });
});

describe("generateTypes at 500 tools", () => {
  it("declares 500 argument interfaces and a 500-entry ToolArgs", async () => {
    const { dir, remove } = tempDir("codegen-500");
    try {
      const config = writeSyntheticConfig(dir, 500) as string;
      const text = await generateTypes(await loadPolicy({ config }));
      const file = parse(text);
      expect(syntaxErrors(file)).toEqual([]);
      expect(declared(file).filter((n) => /^Tool\d{4}Args$/.test(n))).toHaveLength(500);
      const toolArgs = file.statements.find(
        (s) => ts.isInterfaceDeclaration(s) && s.name.text === "ToolArgs",
      );
      expect((toolArgs as ts.InterfaceDeclaration).members).toHaveLength(500);
      expect(readFileSync(join(dir, "tools-001.yaml"), "utf8")).toContain("tool_0499");
    } finally {
      remove();
    }
  });
});

describe("shieldPrototypeKeys", () => {
  it("renames keys named like Object.prototype members, in properties and required, and restores them", () => {
    // JSON.parse: in an object literal, `__proto__` would set the prototype instead of naming a property.
    const schema = JSON.parse(`{
      "type": "object",
      "properties": {
        "constructor": { "type": "string" },
        "__proto__": { "type": "object", "properties": { "toString": { "type": "number" } }, "required": ["toString"] },
        "plain": { "type": "boolean" }
      },
      "required": ["constructor", "plain"]
    }`);
    const { schema: shielded, restore } = shieldPrototypeKeys(schema);
    const text = JSON.stringify(shielded);
    expect(text).not.toMatch(/"(constructor|__proto__|toString)"/);
    const props = shielded.properties as Record<string, { required?: string[] }>;
    const names = Object.keys(props);
    expect(names).toHaveLength(3);
    expect(names).toContain("plain");
    expect(shielded.required).toEqual([names[0], "plain"]);
    expect(
      restore(`${names[0]}: string; ${names[1]}: { ${props[names[1] as string]?.required?.[0]}: number }`),
    ).toBe('"constructor": string; "__proto__": { "toString": number }');
  });

  it("leaves a schema without such keys as it was", () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    const { schema: shielded, restore } = shieldPrototypeKeys(schema);
    expect(shielded).toEqual(schema);
    expect(restore("a: string")).toBe("a: string");
  });
});

describe("values in enum, const and default", () => {
  it("declares keys named like Object.prototype members inside values, and negative numbers before an index signature", async () => {
    const temp = tempDir("codegen-values");
    try {
      // JSON text: every "__proto__" key is an own key, as the loader keeps it.
      writeFileSync(
        join(temp.dir, "tools.yaml"),
        `{"tools":[{"name":"values","description":"d","input_schema":{"type":"object","properties":{
          "choice":{"enum":[{"hasOwnProperty":{}},{"__proto__":{"x":1}},"s"]},
          "fixed":{"const":{"constructor":1},"default":{"toString":2}},
          "minus":{"const":-1}
        },"additionalProperties":true}}]}`,
      );
      writeFileSync(join(temp.dir, "policy.yaml"), '{"version":1,"allow":["values"]}');
      writeFileSync(
        join(temp.dir, "toolgate.config.yaml"),
        '{"tools":["tools.yaml"],"policy":"policy.yaml"}',
      );
      const bundle = await loadPolicy({ config: join(temp.dir, "toolgate.config.yaml") });
      const text = await generateTypes(bundle);
      expect(syntaxErrors(parse(text))).toEqual([]);
      expect(text).toContain('choice?: { hasOwnProperty: {} } | { __proto__: { x: 1 } } | "s";');
      expect(text).toContain("fixed?: { constructor: 1 };");
      expect(text).toContain("minus?: -1;");
    } finally {
      temp.remove();
    }
  });
});
