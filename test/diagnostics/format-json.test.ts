import { describe, expect, it } from "vitest";
import { type Diagnostic, formatJson } from "../../src/diagnostics/index.js";
import { SAMPLE } from "./sample.js";

describe("formatJson", () => {
  it("prints { fingerprint, errorCount, warningCount, diagnostics } with sorted diagnostics", () => {
    expect(formatJson({ fingerprint: "sha256:0123abcd", diagnostics: SAMPLE })).toMatchInlineSnapshot(`
      "{
        "fingerprint": "sha256:0123abcd",
        "errorCount": 2,
        "warningCount": 1,
        "diagnostics": [
          {
            "code": "overlap",
            "severity": "error",
            "message": "tool \\"apply_patch\\" is in both allow (line 3) and ask (line 4); keep it in one",
            "file": "policies/policy.yaml",
            "line": 4,
            "column": 10,
            "endLine": 4,
            "endColumn": 21,
            "path": "/ask/0"
          },
          {
            "code": "unlisted-tool",
            "severity": "warning",
            "message": "tool \\"list_dir\\" has no statement, so it is always denied; add it to allow, ask or deny",
            "file": "policies/policy.yaml",
            "line": 12,
            "column": 3,
            "path": "/allow"
          },
          {
            "code": "yaml-syntax",
            "severity": "error",
            "message": "unexpected end of flow sequence",
            "file": "policies/tools/fs.yaml",
            "line": 7,
            "column": 1
          }
        ]
      }
      "
    `);
  });

  it("prints a clean run with a null fingerprint", () => {
    expect(formatJson({ fingerprint: null, diagnostics: [] })).toBe(
      '{\n  "fingerprint": null,\n  "errorCount": 0,\n  "warningCount": 0,\n  "diagnostics": []\n}\n',
    );
  });

  it("writes the documented keys in a fixed order, whatever the input objects hold", () => {
    const shuffled = {
      path: "/tools/0/name",
      column: 9,
      line: 2,
      file: "t.yaml",
      message: "bad name",
      severity: "error",
      code: "invalid-tool-name",
      internal: "not for output",
    } as Diagnostic;
    const parsed = JSON.parse(formatJson({ fingerprint: null, diagnostics: [shuffled] })) as {
      diagnostics: Record<string, unknown>[];
    };
    expect(Object.keys(parsed.diagnostics[0] ?? {})).toEqual([
      "code",
      "severity",
      "message",
      "file",
      "line",
      "column",
      "path",
    ]);
  });

  it("is deterministic: input order does not change the output", () => {
    const report = { fingerprint: "sha256:ff", diagnostics: [...SAMPLE].reverse() };
    expect(formatJson(report)).toBe(formatJson({ fingerprint: "sha256:ff", diagnostics: SAMPLE }));
  });
});
