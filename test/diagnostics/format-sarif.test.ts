import { readFileSync } from "node:fs";
import AjvDraft04 from "ajv-draft-04";
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES, DIAGNOSTICS, RULE_DESCRIPTIONS } from "../../src/config/diagnostic-codes.js";
import {
  type Diagnostic,
  fingerprintDiagnostic,
  formatSarif,
  pathToSarifUri,
} from "../../src/diagnostics/index.js";
import { SAMPLE } from "./sample.js";

const schemaUrl = new URL(
  "../../node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json",
  import.meta.url,
);
const schema = JSON.parse(readFileSync(schemaUrl, "utf8")) as Record<string, unknown>;

// ajv ships no formats; these follow RFC 3986 closely enough to reject an unencoded space, `%` or non-ASCII.
const URI_CHARS = String.raw`(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#\[\]]|%[0-9A-Fa-f]{2})*`;
const URI = new RegExp(`^[A-Za-z][A-Za-z0-9+.-]*:${URI_CHARS}$`);
const URI_REFERENCE = new RegExp(`^(?:[A-Za-z][A-Za-z0-9+.-]*:)?${URI_CHARS}$`);
// ajv-draft-04 is CommonJS: under NodeNext its class is the default import's `default` (also so at run time).
const Ajv = AjvDraft04.default;
// The schema's `language` pattern has a stray `]`, which is an error under the `u` flag: compile without it.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
ajv.addFormat("uri", URI);
ajv.addFormat("uri-reference", URI_REFERENCE);
ajv.addFormat("date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/);
const validateSarif = ajv.compile(schema);

interface SarifLog {
  $schema: string;
  version: string;
  runs: {
    tool: {
      driver: { name: string; version: string; rules: { id: string; shortDescription: { text: string } }[] };
    };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations?: {
        physicalLocation: {
          artifactLocation: { uri: string; uriBaseId?: string };
          region?: Record<string, number>;
        };
      }[];
      partialFingerprints: Record<string, string>;
    }[];
  }[];
}

function sarif(
  diagnostics: readonly Diagnostic[],
  options = { toolVersion: "0.1.0", table: DIAGNOSTICS },
): SarifLog {
  const text = formatSarif(diagnostics, options);
  const log: unknown = JSON.parse(text);
  // Validate every log a test looks at, so each case is also a schema case.
  if (!validateSarif(log)) throw new Error(ajv.errorsText(validateSarif.errors, { separator: "\n" }));
  return log as SarifLog;
}

function firstRun(log: SarifLog) {
  const run = log.runs[0];
  if (run === undefined) throw new Error("no run");
  return run;
}

const at = (file: string, extra: Partial<Diagnostic> = {}): Diagnostic => ({
  code: "yaml-syntax",
  severity: "error",
  message: "unexpected end of flow sequence",
  file,
  line: 7,
  column: 1,
  ...extra,
});

describe("formatSarif", () => {
  it("prints the sample exactly, and the output validates against the SARIF 2.1.0 schema", () => {
    const text = formatSarif(SAMPLE, { toolVersion: "0.1.0", table: DIAGNOSTICS });
    expect(validateSarif(JSON.parse(text))).toBe(true);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).toMatchInlineSnapshot(`
      "{
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
          {
            "tool": {
              "driver": {
                "name": "toolgate",
                "version": "0.1.0",
                "rules": [
                  {
                    "id": "overlap",
                    "shortDescription": {
                      "text": "A tool is listed in more than one of allow, ask and deny in one policy file."
                    },
                    "fullDescription": {
                      "text": "In one policy file a tool is in two of allow/ask/deny, or twice in one."
                    },
                    "help": {
                      "text": "In one policy file a tool is in two of allow/ask/deny, or twice in one. What to do: Keep it in one list. See https://toolgate.dev/docs/policy-reference.md#diagnostic-overlap",
                      "markdown": "In one policy file a tool is in two of allow/ask/deny, or twice in one.\\n\\n**What to do:** Keep it in one list.\\n\\n[Reference: \`overlap\`](https://toolgate.dev/docs/policy-reference.md#diagnostic-overlap)"
                    },
                    "helpUri": "https://toolgate.dev/docs/policy-reference.md#diagnostic-overlap",
                    "defaultConfiguration": {
                      "level": "error"
                    }
                  },
                  {
                    "id": "unlisted-tool",
                    "shortDescription": {
                      "text": "A declared tool has no policy statement, so it is always denied."
                    },
                    "fullDescription": {
                      "text": "A declared tool has no policy statement, so it is always denied."
                    },
                    "help": {
                      "text": "A declared tool has no policy statement, so it is always denied. What to do: Add it to allow, ask or deny (deny is fine: it says you meant it). See https://toolgate.dev/docs/policy-reference.md#diagnostic-unlisted-tool",
                      "markdown": "A declared tool has no policy statement, so it is always denied.\\n\\n**What to do:** Add it to allow, ask or deny (deny is fine: it says you meant it).\\n\\n[Reference: \`unlisted-tool\`](https://toolgate.dev/docs/policy-reference.md#diagnostic-unlisted-tool)"
                    },
                    "helpUri": "https://toolgate.dev/docs/policy-reference.md#diagnostic-unlisted-tool",
                    "defaultConfiguration": {
                      "level": "warning"
                    }
                  },
                  {
                    "id": "yaml-syntax",
                    "shortDescription": {
                      "text": "The file is not well-formed YAML."
                    },
                    "fullDescription": {
                      "text": "The file is not well-formed YAML, uses a custom tag, or holds more than one document."
                    },
                    "help": {
                      "text": "The file is not well-formed YAML, uses a custom tag, or holds more than one document. What to do: Fix the syntax at the reported position; remove the tag; keep one document per file. See https://toolgate.dev/docs/policy-reference.md#diagnostic-yaml-syntax",
                      "markdown": "The file is not well-formed YAML, uses a custom tag, or holds more than one document.\\n\\n**What to do:** Fix the syntax at the reported position; remove the tag; keep one document per file.\\n\\n[Reference: \`yaml-syntax\`](https://toolgate.dev/docs/policy-reference.md#diagnostic-yaml-syntax)"
                    },
                    "helpUri": "https://toolgate.dev/docs/policy-reference.md#diagnostic-yaml-syntax",
                    "defaultConfiguration": {
                      "level": "error"
                    }
                  }
                ]
              }
            },
            "originalUriBaseIds": {
              "%SRCROOT%": {
                "description": {
                  "text": "The working directory toolgate ran in; file locations are relative to it."
                }
              }
            },
            "columnKind": "utf16CodeUnits",
            "results": [
              {
                "ruleId": "overlap",
                "ruleIndex": 0,
                "level": "error",
                "message": {
                  "text": "tool \\"apply_patch\\" is in both allow (line 3) and ask (line 4); keep it in one"
                },
                "locations": [
                  {
                    "physicalLocation": {
                      "artifactLocation": {
                        "uri": "policies/policy.yaml",
                        "uriBaseId": "%SRCROOT%"
                      },
                      "region": {
                        "startLine": 4,
                        "startColumn": 10,
                        "endLine": 4,
                        "endColumn": 21
                      }
                    }
                  }
                ],
                "partialFingerprints": {
                  "toolgateDiagnostic/v1": "0d4852734d1d834256b4b9091e33de24250ed5ae8ed1ed5531d15703c7b2b0d1"
                }
              },
              {
                "ruleId": "unlisted-tool",
                "ruleIndex": 1,
                "level": "warning",
                "message": {
                  "text": "tool \\"list_dir\\" has no statement, so it is always denied; add it to allow, ask or deny"
                },
                "locations": [
                  {
                    "physicalLocation": {
                      "artifactLocation": {
                        "uri": "policies/policy.yaml",
                        "uriBaseId": "%SRCROOT%"
                      },
                      "region": {
                        "startLine": 12,
                        "startColumn": 3
                      }
                    }
                  }
                ],
                "partialFingerprints": {
                  "toolgateDiagnostic/v1": "2f07fe00b3646cd73d5443d06ef0aa8510052d37219d0f6a9ba191aadb990c4a"
                }
              },
              {
                "ruleId": "yaml-syntax",
                "ruleIndex": 2,
                "level": "error",
                "message": {
                  "text": "unexpected end of flow sequence"
                },
                "locations": [
                  {
                    "physicalLocation": {
                      "artifactLocation": {
                        "uri": "policies/tools/fs.yaml",
                        "uriBaseId": "%SRCROOT%"
                      },
                      "region": {
                        "startLine": 7,
                        "startColumn": 1
                      }
                    }
                  }
                ],
                "partialFingerprints": {
                  "toolgateDiagnostic/v1": "524c095f1e10e5bd877249dec001506e023aa0c2cfd2933a79dde317dbf93282"
                }
              }
            ]
          }
        ]
      }
      "
    `);
  });

  it("the schema check is not vacuous: it rejects a log with an unencoded space in a URI or a bad level", () => {
    const log = JSON.parse(
      formatSarif([at("a b.yaml")], { toolVersion: "1", table: DIAGNOSTICS }),
    ) as SarifLog;
    const location = firstRun(log).results[0]?.locations?.[0];
    if (location === undefined) throw new Error("no location");
    location.physicalLocation.artifactLocation.uri = "a b.yaml";
    expect(validateSarif(log)).toBe(false);
    const bad = JSON.parse(formatSarif([at("a.yaml")], { toolVersion: "1", table: DIAGNOSTICS })) as SarifLog;
    const result = firstRun(bad).results[0];
    if (result === undefined) throw new Error("no result");
    result.level = "fatal";
    expect(validateSarif(bad)).toBe(false);
  });

  it("has one run, driver toolgate with the given version, and the SARIF 2.1.0 header", () => {
    const log = sarif(SAMPLE, { toolVersion: "9.8.7", table: DIAGNOSTICS });
    expect(log.$schema).toBe("https://json.schemastore.org/sarif-2.1.0.json");
    expect(log.version).toBe("2.1.0");
    expect(log.runs).toHaveLength(1);
    expect(firstRun(log).tool.driver.name).toBe("toolgate");
    expect(firstRun(log).tool.driver.version).toBe("9.8.7");
  });

  it("lists the distinct codes used as rules, in code order, and points each result at its rule", () => {
    const diagnostics = [...SAMPLE, at("other.yaml", { code: "overlap", message: "again" })];
    const run = firstRun(sarif(diagnostics));
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(["overlap", "unlisted-tool", "yaml-syntax"]);
    for (const result of run.results) {
      expect(run.tool.driver.rules[result.ruleIndex]?.id).toBe(result.ruleId);
    }
    // Results follow sortDiagnostics: "other.yaml" sorts before "policies/...".
    expect(run.results.map((r) => [r.ruleId, r.ruleIndex, r.level])).toEqual([
      ["overlap", 0, "error"],
      ["overlap", 0, "error"],
      ["unlisted-tool", 1, "warning"],
      ["yaml-syntax", 2, "error"],
    ]);
  });

  it("has a one-sentence description for every diagnostic code, and takes overrides", () => {
    for (const code of DIAGNOSTIC_CODES) expect(RULE_DESCRIPTIONS[code]).toMatch(/^[A-Z].*\.$/);
    const run = firstRun(
      formatSarifLog([at("a.yaml")], {
        toolVersion: "1",
        table: DIAGNOSTICS,
        ruleDescriptions: new Map([["yaml-syntax", "Custom."]]),
      }),
    );
    expect(run.tool.driver.rules[0]?.shortDescription.text).toBe("Custom.");
  });

  it("percent-encodes file names into URI references relative to %SRCROOT%", () => {
    const run = firstRun(
      sarif([
        at("policies/my tools/read file.yaml"),
        at("policies\\windows\\tools.yaml"),
        at("./policies/100%#1?.yaml"),
        at("a:b/c.yaml"),
        at("café/ü [1].yaml"),
      ]),
    );
    const uris = run.results.map((r) => r.locations?.[0]?.physicalLocation.artifactLocation);
    expect(uris).toEqual([
      { uri: "policies/100%25%231%3F.yaml", uriBaseId: "%SRCROOT%" },
      { uri: "a%3Ab/c.yaml", uriBaseId: "%SRCROOT%" },
      { uri: "caf%C3%A9/%C3%BC%20%5B1%5D.yaml", uriBaseId: "%SRCROOT%" },
      { uri: "policies/my%20tools/read%20file.yaml", uriBaseId: "%SRCROOT%" },
      { uri: "policies/windows/tools.yaml", uriBaseId: "%SRCROOT%" },
    ]);
  });

  it("writes an absolute path as a file: URI without a base id", () => {
    expect(pathToSarifUri("/srv/repo/a b.yaml")).toEqual({ uri: "file:///srv/repo/a%20b.yaml" });
    expect(pathToSarifUri("C:\\repo\\a b.yaml")).toEqual({ uri: "file:///C:/repo/a%20b.yaml" });
    expect(pathToSarifUri("\ud800.yaml")).toEqual({ uri: "%EF%BF%BD.yaml", uriBaseId: "%SRCROOT%" });
    sarif([at("/srv/repo/a b.yaml")]);
  });

  it("writes the region only when the position is known, and no location without a file", () => {
    const run = firstRun(
      sarif([
        at("a.yaml", { line: 0, column: 0 }),
        at("b.yaml", { line: 3, column: 2, endLine: 5, endColumn: 9 }),
        at("", { code: "config-not-found", message: "no toolgate config found" }),
      ]),
    );
    expect(run.results.map((r) => r.locations?.[0]?.physicalLocation.region ?? null)).toEqual([
      null,
      null,
      { startLine: 3, startColumn: 2, endLine: 5, endColumn: 9 },
    ]);
    expect(run.results[0]?.locations).toBeUndefined();
  });

  it("gives partialFingerprints that survive line shifts but change with code, file, message or path", () => {
    const base = at("policies/policy.yaml", { path: "/allow/0" });
    const fingerprint = (d: Diagnostic) =>
      firstRun(sarif([d])).results[0]?.partialFingerprints["toolgateDiagnostic/v1"];
    const original = fingerprint(base);
    expect(original).toMatch(/^[0-9a-f]{64}$/);
    expect(original).toBe(fingerprintDiagnostic(base));
    expect(fingerprint({ ...base, line: 40, column: 9, endLine: 41, endColumn: 2 })).toBe(original);
    expect(fingerprint({ ...base, code: "overlap" })).not.toBe(original);
    expect(fingerprint({ ...base, file: "policies/other.yaml" })).not.toBe(original);
    expect(fingerprint({ ...base, message: "something else" })).not.toBe(original);
    expect(fingerprint({ ...base, path: "/allow/1" })).not.toBe(original);
    // Pinned, so a change to the hashed fields is a deliberate version bump.
    expect(original).toMatchInlineSnapshot(
      `"63fe4c16a7bf8214a842655c2b755ed3afe8ed3b88ae09cf235649d3e58e956a"`,
    );
  });

  it("is deterministic: input order does not change the output", () => {
    const options = { toolVersion: "0.1.0", table: DIAGNOSTICS };
    expect(formatSarif([...SAMPLE].reverse(), options)).toBe(formatSarif(SAMPLE, options));
  });

  it("gives a valid log with no rules and no results for a clean run", () => {
    const run = firstRun(sarif([]));
    expect(run.tool.driver.rules).toEqual([]);
    expect(run.results).toEqual([]);
  });
});

function formatSarifLog(
  diagnostics: readonly Diagnostic[],
  options: Parameters<typeof formatSarif>[1],
): SarifLog {
  const log: unknown = JSON.parse(formatSarif(diagnostics, options));
  expect(validateSarif(log)).toBe(true);
  return log as SarifLog;
}
