import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Diagnostic,
  diagnosticsToJunit,
  formatJunit,
  type JunitCase,
  type JunitSuite,
  stripInvalidXmlChars,
} from "../../src/diagnostics/index.js";
import { SAMPLE } from "./sample.js";

// A small, strict checker for the XML subset the formatter writes (no XML package is installed): it throws on
// anything not well-formed and returns the tree with references decoded, so tests can compare values.

interface XmlElement {
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly children: readonly (XmlElement | string)[];
}

/** XML 1.0 `Char`. */
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** What a string should become in the document: the characters XML 1.0 allows, in order. */
function xmlChars(value: string): string {
  let out = "";
  for (const char of value) if (isXmlChar(char.codePointAt(0) ?? 0)) out += char;
  return out;
}

function parseXml(input: string): XmlElement {
  for (const char of input) {
    const cp = char.codePointAt(0) ?? 0;
    if (!isXmlChar(cp)) throw new Error(`forbidden character U+${cp.toString(16)}`);
  }
  const doc = input.replace(/\r\n?/g, "\n"); // XML end-of-line handling, before parsing
  const prolog = '<?xml version="1.0" encoding="UTF-8"?>';
  if (!doc.startsWith(prolog)) throw new Error("missing XML declaration");
  let pos = prolog.length;

  const fail = (what: string): never => {
    throw new Error(`${what} at offset ${pos}: ${JSON.stringify(doc.slice(pos, pos + 30))}`);
  };
  const skipSpace = (): boolean => {
    const start = pos;
    while (pos < doc.length && " \t\n".includes(doc[pos] ?? "")) pos++;
    return pos > start;
  };
  const expectText = (text: string) => {
    if (!doc.startsWith(text, pos)) fail(`expected ${JSON.stringify(text)}`);
    pos += text.length;
  };
  const readName = (): string => {
    const match = /[A-Za-z_:][A-Za-z0-9._:-]*/y;
    match.lastIndex = pos;
    const m = match.exec(doc);
    if (m === null) return fail("expected a name");
    pos += m[0].length;
    return m[0];
  };
  const decode = (raw: string): string =>
    raw.replace(/&([^;&]*);?/g, (whole, body: string) => {
      if (!whole.endsWith(";")) return fail("unterminated reference");
      const named: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
      const hit = named[body];
      if (hit !== undefined) return hit;
      const numeric = /^#(?:([0-9]+)|x([0-9A-Fa-f]+))$/.exec(body);
      if (numeric === null) return fail(`bad reference &${body};`);
      const cp = numeric[1] !== undefined ? Number(numeric[1]) : Number.parseInt(numeric[2] ?? "", 16);
      if (!isXmlChar(cp)) return fail(`reference to a forbidden character &${body};`);
      return String.fromCodePoint(cp);
    });

  const parseElement = (): XmlElement => {
    expectText("<");
    const name = readName();
    const attributes = new Map<string, string>();
    const children: (XmlElement | string)[] = [];
    for (;;) {
      const spaced = skipSpace();
      if (doc.startsWith("/>", pos)) {
        pos += 2;
        return { name, attributes, children };
      }
      if (doc.startsWith(">", pos)) {
        pos += 1;
        break;
      }
      if (!spaced) fail("expected space before an attribute");
      const key = readName();
      if (attributes.has(key)) fail(`duplicate attribute ${key}`);
      skipSpace();
      expectText("=");
      skipSpace();
      const quote = doc[pos];
      if (quote !== '"' && quote !== "'") return fail("expected a quoted value");
      const end = doc.indexOf(quote, pos + 1);
      if (end < 0) fail("unterminated attribute value");
      const raw = doc.slice(pos + 1, end);
      if (raw.includes("<")) fail("< in attribute value");
      // Attribute-value normalisation: literal whitespace characters become spaces.
      attributes.set(key, decode(raw.replace(/[\t\n]/g, " ")));
      pos = end + 1;
    }
    for (;;) {
      if (pos >= doc.length) fail(`unclosed <${name}>`);
      if (doc.startsWith("</", pos)) {
        pos += 2;
        if (readName() !== name) fail(`mismatched end tag for <${name}>`);
        skipSpace();
        expectText(">");
        return { name, attributes, children };
      }
      if (doc.startsWith("<!", pos) || doc.startsWith("<?", pos)) fail("unexpected markup");
      if (doc.startsWith("<", pos)) {
        children.push(parseElement());
        continue;
      }
      const end = doc.indexOf("<", pos);
      const raw = doc.slice(pos, end < 0 ? doc.length : end);
      if (raw.includes("]]>")) fail("]]> in character data");
      children.push(decode(raw));
      pos += raw.length;
    }
  };

  skipSpace();
  const root = parseElement();
  skipSpace();
  if (pos !== doc.length) fail("content after the root element");
  return root;
}

const elements = (e: XmlElement): XmlElement[] =>
  e.children.filter((c): c is XmlElement => typeof c !== "string");
const text = (e: XmlElement): string => e.children.filter((c): c is string => typeof c === "string").join("");

describe("the XML checker used by these tests", () => {
  it("accepts well-formed input and decodes references", () => {
    const root = parseXml(
      '<?xml version="1.0" encoding="UTF-8"?>\n<a x="1 &amp; &#10;2"><b/>t&lt;&#x41;</a>\n',
    );
    expect(root.attributes.get("x")).toBe("1 & \n2");
    expect(text(root)).toBe("t<A");
  });

  it.each([
    ['<a x="&"/>', "bare & in attribute"],
    ["<a>&foo;</a>", "unknown entity"],
    ["<a>1 < 2</a>", "bare <"],
    ['<a x="<"/>', "< in attribute"],
    ['<a x="1" x="2"/>', "duplicate attribute"],
    ["<a><b></a></b>", "bad nesting"],
    ["<a>\u0001</a>", "forbidden character"],
    ["<a>&#0;</a>", "reference to a forbidden character"],
    ["<a>]]></a>", "]]> in text"],
    ["<a/><b/>", "two roots"],
  ])("rejects %j (%s)", (body) => {
    expect(() => parseXml(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`)).toThrow();
  });
});

describe("formatJunit", () => {
  it("prints the lint sample exactly: one suite per file, a failing case per error, a passing case with the text per warning", () => {
    expect(formatJunit(diagnosticsToJunit(SAMPLE))).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites tests="3" failures="2">',
        '  <testsuite name="policies/policy.yaml" tests="2" failures="1" skipped="0">',
        '    <testcase name="overlap at 4:10" classname="policies/policy.yaml" file="policies/policy.yaml" line="4">',
        '      <failure message="tool &quot;apply_patch&quot; is in both allow (line 3) and ask (line 4); keep it in one" type="overlap">error: tool &quot;apply_patch&quot; is in both allow (line 3) and ask (line 4); keep it in one (overlap) at policies/policy.yaml:4:10</failure>',
        "    </testcase>",
        '    <testcase name="unlisted-tool at 12:3 (warning)" classname="policies/policy.yaml" file="policies/policy.yaml" line="12">',
        "      <system-out>warning: tool &quot;list_dir&quot; has no statement, so it is always denied; add it to allow, ask or deny (unlisted-tool) at policies/policy.yaml:12:3</system-out>",
        "    </testcase>",
        "  </testsuite>",
        '  <testsuite name="policies/tools/fs.yaml" tests="1" failures="1" skipped="0">',
        '    <testcase name="yaml-syntax at 7:1" classname="policies/tools/fs.yaml" file="policies/tools/fs.yaml" line="7">',
        '      <failure message="unexpected end of flow sequence" type="yaml-syntax">error: unexpected end of flow sequence (yaml-syntax) at policies/tools/fs.yaml:7:1</failure>',
        "    </testcase>",
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
  });

  it("reports a clean run as one passing case named lint", () => {
    expect(diagnosticsToJunit([])).toEqual([
      { name: "toolgate", cases: [{ name: "lint", classname: "toolgate" }] },
    ]);
    expect(formatJunit(diagnosticsToJunit([]))).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites tests="1" failures="0">',
        '  <testsuite name="toolgate" tests="1" failures="0" skipped="0">',
        '    <testcase name="lint" classname="toolgate"/>',
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
  });

  it("puts a diagnostic without a file in a suite named toolgate", () => {
    const d: Diagnostic = {
      code: "config-not-found",
      severity: "error",
      message: "no toolgate config found",
      file: "",
      line: 0,
      column: 0,
    };
    expect(diagnosticsToJunit([d])).toEqual([
      {
        name: "toolgate",
        cases: [
          {
            name: "config-not-found at 0:0",
            classname: "toolgate",
            failure: {
              message: "no toolgate config found",
              type: "config-not-found",
              text: "error: no toolgate config found (config-not-found) at (no file):0:0",
            },
          },
        ],
      },
    ]);
  });

  it("writes time, skipped cases and empty suites, and counts them", () => {
    const suites: JunitSuite[] = [
      {
        name: "policy tests",
        cases: [
          { name: "passes", classname: "tests.yaml", file: "tests.yaml", line: 3, time: 0.0123 },
          { name: "skipped", classname: "tests.yaml", skipped: true },
          {
            name: "fails",
            classname: "tests.yaml",
            time: 1,
            skipped: true,
            failure: {
              message: "expected deny, got allow",
              type: "test-failed",
              text: "expected deny\ngot allow",
            },
          },
          { name: "bad numbers", classname: "tests.yaml", line: 0, time: Number.NaN },
        ],
      },
      { name: "empty", cases: [] },
    ];
    expect(formatJunit(suites)).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites tests="4" failures="1">',
        '  <testsuite name="policy tests" tests="4" failures="1" skipped="1">',
        '    <testcase name="passes" classname="tests.yaml" file="tests.yaml" line="3" time="0.012"/>',
        '    <testcase name="skipped" classname="tests.yaml">',
        "      <skipped/>",
        "    </testcase>",
        '    <testcase name="fails" classname="tests.yaml" time="1.000">',
        '      <failure message="expected deny, got allow" type="test-failed">expected deny',
        "got allow</failure>",
        "    </testcase>",
        '    <testcase name="bad numbers" classname="tests.yaml"/>',
        "  </testsuite>",
        '  <testsuite name="empty" tests="0" failures="0" skipped="0"/>',
        "</testsuites>",
        "",
      ].join("\n"),
    );
    expect(formatJunit([])).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="0" failures="0"/>\n',
    );
  });

  it("escapes & < > \" ' everywhere, keeps CR, LF and tab in attributes, and drops forbidden characters", () => {
    const nasty = `a&b<c>d"e'f\r\n\tg\u0000\u0008\u000b\u001f\ufffe\uffff\ud800h]]>`;
    const output = formatJunit([
      {
        name: nasty,
        cases: [
          {
            name: nasty,
            classname: nasty,
            file: nasty,
            failure: { message: nasty, type: nasty, text: nasty },
          },
        ],
      },
    ]);
    const attribute = "a&amp;b&lt;c&gt;d&quot;e&apos;f&#13;&#10;&#9;gh]]&gt;";
    const content = "a&amp;b&lt;c&gt;d&quot;e&apos;f&#13;\n\tgh]]&gt;";
    expect(output).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites tests="1" failures="1">',
        `  <testsuite name="${attribute}" tests="1" failures="1" skipped="0">`,
        `    <testcase name="${attribute}" classname="${attribute}" file="${attribute}">`,
        `      <failure message="${attribute}" type="${attribute}">${content}</failure>`,
        "    </testcase>",
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
    const failure = elements(
      elements(elements(parseXml(output))[0] as XmlElement)[0] as XmlElement,
    )[0] as XmlElement;
    expect(failure.attributes.get("message")).toBe(`a&b<c>d"e'f\r\n\tgh]]>`);
    expect(text(failure)).toBe(`a&b<c>d"e'f\r\n\tgh]]>`);
  });

  it("stripInvalidXmlChars keeps tab, LF, CR, astral characters and U+FFFD", () => {
    expect(stripInvalidXmlChars("\t\n\r \u{1F600}\ufffd\u007f\u0085")).toBe(
      "\t\n\r \u{1F600}\ufffd\u007f\u0085",
    );
    expect(stripInvalidXmlChars("\u0000x\udc00\ud83dy\ufffe")).toBe("xy");
  });

  // Any code point, any UTF-16 unit (so lone surrogates too), and the characters XML treats specially.
  const nastyString = fc.string({
    unit: fc.oneof(
      fc.constantFrom(
        "&",
        "<",
        ">",
        '"',
        "'",
        "\r",
        "\n",
        "\t",
        "\u0000",
        "\u001b",
        "]]>",
        "&amp;",
        "\ufffe",
      ),
      fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
      fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)),
    ),
    maxLength: 24,
  });
  const junitCase: fc.Arbitrary<JunitCase> = fc.record(
    {
      name: nastyString,
      classname: nastyString,
      file: nastyString,
      line: fc.integer({ min: -2, max: 10_000 }),
      time: fc.double({ noNaN: false }),
      skipped: fc.boolean(),
      failure: fc.record({ message: nastyString, type: nastyString, text: nastyString }),
    },
    { requiredKeys: ["name", "classname"] },
  );
  const suites = fc.array(fc.record({ name: nastyString, cases: fc.array(junitCase, { maxLength: 4 }) }), {
    maxLength: 4,
  });

  it("always gives well-formed XML with no forbidden characters that reads back as the input, whatever the strings", () => {
    fc.assert(
      fc.property(suites, (input) => {
        const output = formatJunit(input);
        const root = parseXml(output); // throws when not well-formed or a forbidden character is present
        expect(root.name).toBe("testsuites");
        const suiteElements = elements(root);
        expect(suiteElements).toHaveLength(input.length);
        let failures = 0;
        input.forEach((suite, i) => {
          const element = suiteElements[i] as XmlElement;
          expect(element.attributes.get("name")).toBe(xmlChars(suite.name));
          const caseElements = elements(element);
          expect(caseElements).toHaveLength(suite.cases.length);
          suite.cases.forEach((c, j) => {
            const e = caseElements[j] as XmlElement;
            expect(e.attributes.get("name")).toBe(xmlChars(c.name));
            expect(e.attributes.get("classname")).toBe(xmlChars(c.classname));
            expect(e.attributes.get("file")).toBe(c.file === undefined ? undefined : xmlChars(c.file));
            if (c.failure !== undefined) {
              failures++;
              const f = elements(e)[0] as XmlElement;
              expect(f.name).toBe("failure");
              expect(f.attributes.get("message")).toBe(xmlChars(c.failure.message));
              expect(f.attributes.get("type")).toBe(xmlChars(c.failure.type));
              expect(text(f)).toBe(xmlChars(c.failure.text));
            }
          });
        });
        expect(root.attributes.get("failures")).toBe(String(failures));
      }),
      { numRuns: 1500 },
    );
  });
});
