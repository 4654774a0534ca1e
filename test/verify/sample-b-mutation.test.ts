/**
 * Candidates and readings of the verify engine the broader tests do not reach (found by mutation testing of a sample
 * of field-domain.ts, path-language.ts and schema-facts.ts): the strings tried next to a side's length bounds where
 * the string theory is too large, a folder a glob names entered and left under a `path_prefix`'s folder, the globs of
 * everything under a folder named from the start (and the ones that only start so), and pydantic's optional fields
 * inside `items` and `additionalProperties` beside keywords whose values are data, not schemas; and on shell lines, a
 * prefix's later words after other words of the program and a listed option spelt from the alphabet alone.
 */
import { describe, expect, it } from "vitest";
import { compileCondition } from "../../src/runtime/condition.js";
import { ToolPolicy } from "../../src/runtime/policy.js";
import { AlphabetBuilder } from "../../src/verify/alphabet.js";
import { Automata } from "../../src/verify/automata.js";
import { accepts } from "../../src/verify/dfa.js";
import { PathLanguages } from "../../src/verify/path-language.js";
import { withOptionalsRead } from "../../src/verify/schema-facts.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { fallbackValues, loadFromText, readFileTools, shellTools, stringField } from "./helpers.js";

describe("the strings tried where the string theory is too large", () => {
  it("holds a pattern's strings one past the minLength and one short of the maxLength", () => {
    // `^(?:a{5}|b{6}|c{9})$` on strings of 5 to 10: its shortest string is `aaaaa`; `bbbbbb` (6, one past the
    // minimum) and `ccccccccc` (9, one short of the maximum) are of the lengths next to the bounds, which the
    // fallback tries so that a pattern's strings near a raised bound are found (a rule may read only them).
    const values = fallbackValues(
      stringField([["regex", "^(?:a{5}|b{6}|c{9})$"]], undefined, {
        type: "string",
        minLength: 5,
        maxLength: 10,
      }),
    );
    expect(values).toContain("aaaaa");
    expect(values).toContain("bbbbbb");
    expect(values).toContain("ccccccccc");
    // Each is a concrete value: the regex operator is certain of the three.
    const regex = compileCondition({ f: { regex: "^(?:a{5}|b{6}|c{9})$" } });
    if (!regex.ok) throw new Error("the regex does not compile");
    for (const v of ["bbbbbb", "ccccccccc"]) expect(regex.condition({ f: v })).toBe(1);
  });
});

const READ_FILE = readFileTools();

describe("a folder a glob names, entered and left under a path_prefix's folder", () => {
  it.each([
    ["src/app/", "src/app/.ssh/.."],
    // An absolute prefix keeps its first slash: `srv/app/.ssh/..` is under no `/srv/app/`.
    ["/srv/app/", "/srv/app/.ssh/.."],
  ])("is the witness of a property about paths under %s: %s", (prefix, witness) => {
    // The deny glob `**/.ssh/**` is false on `src/app/.ssh/..` (its normal form, `src/app`, holds no `.ssh`), while
    // the property's `path_prefix` may be true there (a maybe: `..` climbs back to the folder itself) and its regex
    // sees `.ssh` as written. The candidate is the prefix's folder, without its last slash, with the folder the
    // glob names entered and left.
    const policy = `version: 1
allow: [read_file]
rules:
  - id: secrets
    tools: [read_file]
    decision: deny
    when: { path: { glob: ["**/.ssh/**"] } }
    reason: no.
`;
    const { bundle, validators } = loadFromText(READ_FILE, policy);
    const [result] = new Verifier(bundle, validators).verify([
      {
        id: "ssh-under-app-denied",
        tools: ["read_file"],
        where: { path: { path_prefix: prefix, regex: "(^|/)\\.ssh(/|$)" } },
        kind: "always",
        action: "deny",
      },
    ]);
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const path = (result?.witness?.arguments as { path?: string } | undefined)?.path;
    expect(path).toBe(witness);
    const decision = ToolPolicy.fromStatements(bundle.statements).decide({
      callId: "c",
      toolName: "read_file",
      arguments: { path },
    }).action;
    expect(decision).toBe("allow");
    const under = compileCondition({ f: { path_prefix: prefix } });
    if (!under.ok) throw new Error("the prefix does not compile");
    expect(under.condition({ f: path })).toBe(2);
  });
});

describe("the options a command prefix lists", () => {
  it("are letters of the alphabet of their own, past the options tried as candidates", () => {
    // `ls` with these options is allowed only where every option after it is listed: `ls -X` is allowed, `ls -A`
    // (not listed) is asked. The candidates spell a prefix with the first 16 options a field's lists name; `-X` is
    // the 18th, so the witness is spelt from the alphabet, where `X` is a letter of its own only because the
    // listed options cut it (the property's `[A-Z]` is one range).
    const options = [
      "--all",
      "--almost-all",
      "--author",
      "--escape",
      "--ignore-backups",
      "--directory",
      "--classify",
      "--file-type",
      "--human-readable",
      "--si",
      "--inode",
      "--dereference",
      "--numeric-uid-gid",
      "--literal",
      "--indicator-style",
      "--quote-name",
      "--recursive",
      "-X",
    ];
    const policy = JSON.stringify({
      version: 1,
      otherwise: { run_shell: "ask" },
      rules: [
        {
          id: "listing",
          tools: ["run_shell"],
          decision: "allow",
          when: { command: { command: [{ prefix: "ls", options }] } },
          reason: "listings",
        },
      ],
    });
    const { bundle, validators } = loadFromText(shellTools(), policy);
    const [result] = new Verifier(bundle, validators).verify([
      {
        id: "short-options-not-allowed",
        tools: ["run_shell"],
        where: { command: { regex: "^ls -[A-Z]$" } },
        kind: "never",
        action: "allow",
      },
    ]);
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const command = (result?.witness?.arguments as { command?: string } | undefined)?.command;
    expect(command).toBe("ls -X");
    const decide = (line: string) =>
      ToolPolicy.fromStatements(bundle.statements).decide({
        callId: "c",
        toolName: "run_shell",
        arguments: { command: line },
      }).action;
    expect(decide("ls -X")).toBe("allow");
    expect(decide("ls -A")).toBe("ask");
  });
});

describe("a command prefix's later words after other words", () => {
  it("are the witness where the line is to start with other words of the program", () => {
    // The runtime may read `delete` in `kubectl get delete` as kubectl's subcommand (the words between may be
    // options with values), so the deny list `kubectl delete` is a maybe there and the deny stands; likewise
    // `rollout restart` after `kubectl get`. The property's lines start with `kubectl get`: the maybe seed's lines,
    // the program, other words, then the prefix's later words as written (one blank between them), give the
    // witness before the lines of a word that may run anything (`kubectl get at`).
    for (const [prefix, witness] of [
      ["kubectl delete", "kubectl get delete"],
      ["kubectl rollout restart", "kubectl get rollout restart"],
    ]) {
      const policy = JSON.stringify({
        version: 1,
        otherwise: { run_shell: "allow" },
        rules: [
          {
            id: "no-change",
            tools: ["run_shell"],
            decision: "deny",
            when: { command: { command: [prefix] } },
            reason: "changes are refused",
          },
        ],
      });
      const { bundle, validators } = loadFromText(shellTools(), policy);
      const [result] = new Verifier(bundle, validators).verify([
        {
          id: "gets-allowed",
          tools: ["run_shell"],
          where: { command: { regex: "^kubectl get" } },
          kind: "always",
          action: "allow",
        },
      ]);
      expect(result?.status, JSON.stringify(result)).toBe("fails");
      const command = (result?.witness?.arguments as { command?: string } | undefined)?.command;
      expect(command, prefix).toBe(witness);
      const decision = ToolPolicy.fromStatements(bundle.statements).decide({
        callId: "c",
        toolName: "run_shell",
        arguments: { command },
      }).action;
      expect(decision, prefix).toBe("deny");
    }
  });
});

function pathLanguages(globs: readonly string[], values: readonly string[]) {
  const builder = new AlphabetBuilder();
  PathLanguages.addBoundaries(builder, globs, []);
  for (const v of values) builder.addText(v);
  const automata = new Automata(builder.build());
  return { alphabet: automata.alphabet, paths: new PathLanguages(automata) };
}

describe("the globs of everything under a folder named from the start", () => {
  // Whether the glob is never false on each value, with the runtime's answer checked where it is.
  function neverFalseOn(g: string, values: readonly string[]): boolean[] {
    const { alphabet, paths } = pathLanguages([g], values);
    const { neverFalse } = paths.glob([g]);
    const glob = compileCondition({ f: { glob: [g] } });
    if (!glob.ok) throw new Error(`the glob ${g} does not compile`);
    return values.map((v) => {
      const never = accepts(neverFalse, alphabet.symbols(v));
      if (never) expect(glob.condition({ f: v }), `${g} on ${v}`).not.toBe(0);
      return never;
    });
  }

  it("are never false under a folder of one, two or three segments of several characters", () => {
    // `ab/cd/**` matches every path in normal form under `ab/cd` as written (the POSIX reading is the string
    // itself), so the glob is never false there: `ab/cd/x`, `ab/cd/ef/gh`, `ab/cd` itself; not under another folder.
    expect(neverFalseOn("ab/cd/**", ["ab/cd/x", "ab/cd/ef/gh", "ab/cd", "ab/c/x", "ab/cde/x"])).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(neverFalseOn("src/**", ["src/a", "src", "srcx/a"])).toEqual([true, true, false]);
    expect(neverFalseOn("ab/cd/ef/**", ["ab/cd/ef/x", "ab/cd/x"])).toEqual([true, false]);
  });

  it("are not globs that only start or end so: `src/**/x`, `/srv/**`, `*/ab/**`", () => {
    // `src/**/x` names a file `x` somewhere under `src`, `/srv/**` absolute paths, `*/ab/**` a folder `ab` one
    // segment down: the runtime answers false on `src/a`, `srv/x` and `ab/x`, so none is among the strings the
    // glob is never false on (reading the folder off the glob's start or end alone would put them there).
    const cases: [string, string][] = [
      ["src/**/x", "src/a"],
      ["src/**/x", "src/b/c"],
      ["/srv/**", "srv/x"],
      ["*/ab/**", "ab/x"],
    ];
    for (const [g, v] of cases) {
      const glob = compileCondition({ f: { glob: [g] } });
      if (!glob.ok) throw new Error(`the glob ${g} does not compile`);
      expect(glob.condition({ f: v }), `${g} on ${v}`).toBe(0);
      expect(neverFalseOn(g, [v]), `${g} on ${v}`).toEqual([false]);
    }
  });
});

describe("withOptionalsRead inside items and additionalProperties", () => {
  const optional = { anyOf: [{ type: "string", maxLength: 3 }, { type: "null" }] };
  const read = { type: ["string", "null"], maxLength: 3 };

  it("reads an optional as a leaf in an array's items and in an object's additionalProperties", () => {
    // pydantic writes `list[Optional[str]]` and `dict[str, Optional[str]]` so: the same values are valid on the leaf
    // with null among its types.
    expect(withOptionalsRead({ type: "array", items: optional } as never)).toEqual({
      type: "array",
      items: read,
    });
    expect(withOptionalsRead({ type: "object", additionalProperties: optional } as never)).toEqual({
      type: "object",
      additionalProperties: read,
    });
    expect(
      withOptionalsRead({
        type: "object",
        properties: { tags: { type: "object", additionalProperties: { type: "array", items: optional } } },
      } as never),
    ).toEqual({
      type: "object",
      properties: { tags: { type: "object", additionalProperties: { type: "array", items: read } } },
    });
  });

  it("keeps the values of keywords that are data as written, even shaped like an optional", () => {
    // `const`, `default` and `examples` hold values, not schemas: a `const` object is the one valid value, so reading
    // it as a leaf would change which calls are valid.
    const schema = {
      type: "object",
      properties: {
        shape: { type: "object", const: optional, default: optional },
        list: { type: "array", examples: [optional], default: [optional] },
      },
    };
    expect(withOptionalsRead(schema as never)).toEqual(schema);
  });
});
