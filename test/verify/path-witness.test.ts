/**
 * Witnesses among the paths other platforms read differently: a Windows short name (`PROGRA~1`) may be any folder,
 * so a `path_prefix` is a maybe there while a glob of absolute paths is false.
 */
import { describe, expect, it } from "vitest";
import { ToolPolicy } from "../../src/runtime/policy.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText, readFileTools } from "./helpers.js";

const TOOLS = readFileTools();

function verify(policy: string, where: unknown, kind: "never" | "always", action: "allow" | "deny") {
  const { bundle, validators } = loadFromText(TOOLS, policy);
  const [result] = new Verifier(bundle, validators).verify([
    { id: "p", tools: ["read_file"], where: where as never, kind, action },
  ]);
  const decide = (path: string) =>
    ToolPolicy.fromStatements(bundle.statements).decide({
      callId: "c",
      toolName: "read_file",
      arguments: { path },
    }).action;
  return { result, decide };
}

describe("path witnesses", () => {
  it("a path prefix of /etc is a maybe on a short name that no glob of absolute paths denies", () => {
    const { result, decide } = verify(
      `version: 1
allow: [read_file]
rules:
  - id: absolute
    tools: [read_file]
    decision: deny
    when: { path: { glob: ["/**"] } }
    reason: no.
`,
      { path: { path_prefix: "/etc" } },
      "always",
      "deny",
    );
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const path = (result?.witness?.arguments as { path?: string } | undefined)?.path ?? "";
    expect(decide(path)).toBe("allow");
  });

  it("enters and leaves a folder a glob names anywhere under an allowed folder: `src/.ssh/..` is `src`", () => {
    const { result, decide } = verify(
      `version: 1
otherwise: { read_file: ask }
rules:
  - id: src
    tools: [read_file]
    decision: allow
    when: { path: { glob: ["src/**"] } }
    reason: sources.
  - id: secrets
    tools: [read_file]
    decision: deny
    when: { path: { glob: ["**/.ssh/**", "**/node_modules/**"] } }
    reason: no.
`,
      { path: { regex: "(^|/)\\.ssh(/|$)" } },
      "never",
      "allow",
    );
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const path = (result?.witness?.arguments as { path?: string } | undefined)?.path ?? "";
    expect(path).toMatch(/(^|\/)\.ssh(\/|$)/);
    expect(decide(path), path).toBe("allow");
  });

  it("climbs back out of a folder prefix: `.git/..` starts with `.git/` and names the workspace", () => {
    const { result, decide } = verify(
      `version: 1
allow: [read_file]
rules:
  - id: git
    tools: [read_file]
    decision: deny
    when: { path: { glob: ["**/.git", "**/.git/**"] } }
    reason: no.
`,
      { path: { path_prefix: ".git/" } },
      "always",
      "deny",
    );
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const path = (result?.witness?.arguments as { path?: string } | undefined)?.path ?? "";
    expect(path.startsWith(".git/")).toBe(true);
    expect(decide(path)).toBe("allow");
  });

  it("climbs out of the folder a pattern names into one an allow glob is certain of: `.github/../src/a.ts`", () => {
    const policy = `version: 1
otherwise: { read_file: ask }
rules:
  - id: sources
    tools: [read_file]
    decision: allow
    when: { path: { glob: ["src/**/*.ts"], not: { glob: ["**/*.d.ts"] } } }
    reason: sources.
  - id: secrets
    tools: [read_file]
    decision: deny
    when: { path: { glob: ["**/.ssh/**", ".github/**"] } }
    reason: no.
`;
    for (const regex of ["^\\.github/", "(^|/)\\.ssh(/|$)"]) {
      const { result, decide } = verify(policy, { path: { regex } }, "never", "allow");
      expect(result?.status, JSON.stringify(result)).toBe("fails");
      const path = (result?.witness?.arguments as { path?: string } | undefined)?.path ?? "";
      expect(path).toMatch(new RegExp(regex));
      expect(path).toContain("/../");
      expect(decide(path)).toBe("allow");
    }
  });

  it("climbs back out of a text prefix as a path: `/etc/..` starts with `/etc/` and names `/`", () => {
    const { result, decide } = verify(
      `version: 1
otherwise: { read_file: ask }
rules:
  - id: system
    tools: [read_file]
    decision: deny
    when: { path: { glob: ["/etc/**", "/usr/**"] } }
    reason: no.
  - id: sources
    tools: [read_file]
    decision: allow
    when: { path: { path_prefix: "src/" } }
    reason: fine.
`,
      { path: { prefix: "/etc/" } },
      "always",
      "deny",
    );
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const path = (result?.witness?.arguments as { path?: string } | undefined)?.path ?? "";
    expect(path.startsWith("/etc/")).toBe(true);
    expect(decide(path)).toBe("ask");
  });

  it("finds the dot segment that makes a glob a maybe where a rule asks for certainty", () => {
    const { result, decide } = verify(
      `version: 1
rules:
  - id: sources
    tools: [read_file]
    decision: allow
    when: { path: { glob: ["src/*.ts"] } }
    reason: fine.
`,
      { path: { glob: "src/*.ts" } },
      "always",
      "allow",
    );
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const path = (result?.witness?.arguments as { path?: string } | undefined)?.path ?? "";
    expect(path).not.toMatch(/^src\/[^/]*\.ts$/);
    expect(decide(path)).toBe("deny");
  });
});
