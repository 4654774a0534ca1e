/**
 * `toolgate init` through the built CLI: the files it writes pass `toolgate lint` at once; it refuses to
 * overwrite; tools come from a real MCP server over stdio (@modelcontextprotocol/server-filesystem) and over
 * Streamable HTTP (a server built here with the SDK's server classes), and from OpenAI and Anthropic files,
 * with every tool toolgate cannot accept reported by name and reason.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { assertBuilt, BIN, ROOT, toolgate, writeTree } from "./cli-helpers.js";

const FILESYSTEM_SERVER = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

/** Runs the CLI without blocking this process's event loop (the HTTP server below lives in it). */
function toolgateAsync(args: readonly string[], cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

const emptyDir = () => mkdtempSync(join(tmpdir(), "toolgate-init-"));
const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
const FILES = [
  "toolgate.config.yaml",
  "policies/tools/tools.yaml",
  "policies/policy.yaml",
  "policies/tests/tools.yaml",
];

function lintJson(dir: string) {
  const lint = toolgate(["lint", "--format", "json"], dir);
  return { code: lint.code, report: JSON.parse(lint.stdout) as { errorCount: number; warningCount: number } };
}

beforeAll(() => {
  assertBuilt();
});

describe("toolgate init (no source)", () => {
  it("writes the four files, lint passes at once, and it prints the next three commands", () => {
    const dir = emptyDir();
    const init = toolgate(["init"], dir);
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    for (const file of FILES) expect(existsSync(join(dir, file))).toBe(true);
    expect(init.stdout).toContain("toolgate lint: no problems (1 tool, 1 policy test passed)");
    expect(init.stdout.split("\nNext:\n")[1]?.split("\n").slice(0, 3)).toEqual([
      "  npx toolgate lint",
      `  npx toolgate explain read_file --args '{"path":"README.md"}'`,
      "  npx toolgate test --coverage",
    ]);
    expect(lintJson(dir)).toEqual({
      code: 0,
      report: expect.objectContaining({ errorCount: 0, warningCount: 0 }),
    });

    const policy = parse(read(dir, "policies/policy.yaml"));
    expect(policy).toEqual({
      version: 1,
      ask: ["read_file"],
      reasons: { read_file: "a person approves each read_file call until this policy decides more" },
    });
    expect(parse(read(dir, "policies/tests/tools.yaml")).tests).toEqual([
      {
        name: "read_file: a call waits for a person's approval",
        call: { tool: "read_file", arguments: { path: "README.md" } },
        expect: "ask",
        rule: "ask:read_file",
      },
    ]);
    // Deny by default: a tool the policy does not name is refused.
    const explain = toolgate(["explain", "read_file", "--args", '{"path":"a"}', "--format", "json"], dir);
    expect(JSON.parse(explain.stdout).action).toBe("ask");
  });

  it("what it writes passes fmt --check, lint with no warning, test, codegen --check and compile --check", () => {
    const dir = emptyDir();
    const init = toolgate(["init"], dir);
    expect(init.code, init.stderr).toBe(0);
    expect(parse(read(dir, "toolgate.config.yaml"))).toMatchObject({
      codegen: { out: "generated/toolgate.ts" },
      compile: { out: "generated/toolgate.controller.mjs" },
    });
    for (const file of [
      "generated/toolgate.ts",
      "generated/toolgate.controller.mjs",
      "generated/toolgate.controller.d.mts",
    ])
      expect(existsSync(join(dir, file)), file).toBe(true);
    expect(toolgate(["fmt", "--check"], dir)).toMatchObject({
      code: 0,
      stdout: "toolgate: 4 files are formatted\n",
    });
    expect(lintJson(dir)).toEqual({
      code: 0,
      report: expect.objectContaining({ errorCount: 0, warningCount: 0 }),
    });
    expect(toolgate(["test"], dir)).toMatchObject({
      code: 0,
      stdout: "1 passed, 0 failed (1 policy test)\n",
    });
    expect(toolgate(["codegen", "--check"], dir)).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^toolgate: generated\/toolgate\.ts is up to date \(1 tool; sha256:/),
    });
    expect(toolgate(["compile", "--check"], dir)).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(
        /^toolgate: generated\/toolgate\.controller\.mjs and generated\/toolgate\.controller\.d\.mts are up to date \(1 tool; sha256:/,
      ),
    });
  });

  it("points each modeline at node_modules/toolgate/schemas relative to its own file", () => {
    const dir = emptyDir();
    expect(toolgate(["init"], dir).code).toBe(0);
    const modeline = (file: string) => read(dir, file).split("\n")[0];
    expect(modeline("toolgate.config.yaml")).toBe(
      "# yaml-language-server: $schema=./node_modules/toolgate/schemas/config.schema.json",
    );
    expect(modeline("policies/tools/tools.yaml")).toBe(
      "# yaml-language-server: $schema=../../node_modules/toolgate/schemas/tools.schema.json",
    );
    expect(modeline("policies/policy.yaml")).toBe(
      "# yaml-language-server: $schema=../node_modules/toolgate/schemas/policy.schema.json",
    );
    expect(modeline("policies/tests/tools.yaml")).toBe(
      "# yaml-language-server: $schema=../../node_modules/toolgate/schemas/tests.schema.json",
    );
  });

  it("writes into DIR, creating it, and the printed commands name its configuration", () => {
    const parent = emptyDir();
    const init = toolgate(["init", "agent/policy"], parent);
    expect(init.code).toBe(0);
    expect(existsSync(join(parent, "agent/policy/toolgate.config.yaml"))).toBe(true);
    expect(init.stdout).toContain("  npx toolgate lint --config agent/policy/toolgate.config.yaml\n");
    expect(toolgate(["lint", "--config", "agent/policy/toolgate.config.yaml"], parent).code).toBe(0);
  });

  it("refuses to overwrite any file it would write; --force replaces them and leaves the rest alone", () => {
    const dir = writeTree({ "policies/policy.yaml": "version: 1\n", "policies/notes.md": "mine\n" });
    const refused = toolgate(["init"], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "toolgate: not overwriting policies/policy.yaml; pass --force to replace them (other files are left alone)\n",
    );
    expect(readdirSync(dir).sort()).toEqual(["policies"]);
    expect(read(dir, "policies/policy.yaml")).toBe("version: 1\n");
    const forced = toolgate(["init", "--force"], dir);
    expect(forced.code).toBe(0);
    expect(read(dir, "policies/policy.yaml")).toContain("ask:");
    expect(read(dir, "policies/notes.md")).toBe("mine\n");
  });

  it("refuses, even with --force, when another configuration file would shadow toolgate.config.yaml", () => {
    const dir = writeTree({ ".toolgaterc.yaml": "tools: [t.yaml]\npolicy: p.yaml\n" });
    const refused = toolgate(["init", "--force"], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("already has a toolgate configuration: .toolgaterc.yaml");
    expect(existsSync(join(dir, "toolgate.config.yaml"))).toBe(false);
    expect(toolgate(["init", ".toolgaterc.yaml"], dir).stderr).toBe(
      "toolgate: .toolgaterc.yaml is a file; give the folder to write into\n",
    );
    const pkg = writeTree({
      "package.json": JSON.stringify({ name: "app", toolgate: { tools: ["t.yaml"] } }),
    });
    expect(toolgate(["init"], pkg).stderr).toContain("package.json (its toolgate key)");
  });
});

describe("toolgate init next to other policy files", () => {
  it("says when a file the configuration also reads makes lint fail, and shows lint's findings", () => {
    const dir = writeTree({
      "policies/tools/extra.yaml":
        "tools:\n  - name: read_file\n    description: Mine.\n    input_schema: { type: object }\n",
    });
    const init = toolgate(["init"], dir);
    expect(init.code).toBe(1);
    expect(init.stdout).toContain("duplicate-tool");
    expect(init.stderr).toBe(
      "toolgate: the files written do not pass toolgate lint together with policies/tools/extra.yaml, which the configuration also reads; fix or move them\n",
    );
  });
});

describe("toolgate init --from-openai / --from-anthropic", () => {
  it("imports function tools, reports each tool it cannot accept with the reason, exits 1, and lint passes", () => {
    const dir = writeTree({
      "tools.json": JSON.stringify({
        model: "gpt-5",
        tools: [
          {
            type: "function",
            function: {
              name: "get_weather",
              description: "Weather for a city.",
              parameters: {
                type: "object",
                properties: { city: { type: "string" }, unit: { enum: ["c", "f"] } },
                required: ["city", "unit"],
                additionalProperties: false,
              },
            },
          },
          {
            type: "function",
            name: "weather.alerts",
            description: "Alerts.",
            parameters: { type: "object" },
          },
          { type: "web_search" },
          {
            type: "function",
            name: "book",
            description: "Book.",
            parameters: { type: "object", properties: { at: { type: "string", format: "when" } } },
          },
        ],
      }),
    });
    const init = toolgate(["init", "--from-openai", "tools.json"], dir);
    expect(init.stderr).toBe("");
    expect(init.code).toBe(1);
    expect(init.stdout).toContain("policies/tools/tools.yaml  (1 tool)");
    expect(init.stdout).toContain(
      [
        "3 tools not imported:",
        "  weather.alerts (OpenAI tools in tools.json):",
        '    tool name "weather.alerts" is not valid (it contains "."): names must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$, as model providers require',
        "  (no name) (OpenAI tools in tools.json):",
        '    it is a tool of type "web_search", not a function tool; toolgate gates function calls that the application runs',
        "  book (OpenAI tools in tools.json):",
        '    tool "book": input_schema is not a valid JSON Schema: unknown format "when"',
      ].join("\n"),
    );
    expect(parse(read(dir, "policies/tools/tools.yaml")).tools).toEqual([
      {
        name: "get_weather",
        description: "Weather for a city.",
        input_schema: {
          type: "object",
          properties: { city: { type: "string" }, unit: { enum: ["c", "f"] } },
          required: ["city", "unit"],
          additionalProperties: false,
        },
      },
    ]);
    expect(parse(read(dir, "policies/tests/tools.yaml")).tests[0].call).toEqual({
      tool: "get_weather",
      arguments: { city: "example", unit: "c" },
    });
    expect(lintJson(dir).code).toBe(0);
  });

  it("imports Anthropic client tools and skips Anthropic's own tool types", () => {
    const dir = writeTree({
      "anthropic.json": JSON.stringify([
        { type: "bash_20250124", name: "bash" },
        {
          name: "search_docs",
          description: "Search the docs.",
          input_schema: {
            type: "object",
            properties: { query: { type: "string", maxLength: 200 } },
            required: ["query"],
          },
        },
        {
          name: "ticket",
          description: "Open a ticket.",
          input_schema: {
            type: "object",
            properties: { id: { type: "string", pattern: "^[A-Z]{3}-[0-9]+$" } },
            required: ["id"],
          },
        },
      ]),
    });
    const init = toolgate(["init", "--from-anthropic", "anthropic.json"], dir);
    expect(init.code).toBe(1);
    expect(init.stdout).toContain("  bash (Anthropic tools in anthropic.json):");
    expect(init.stdout).toContain("(1 policy test)");
    expect(init.stdout).toContain(
      "note: ticket: no arguments that pass its input_schema could be guessed, so its test is left commented out",
    );
    expect(read(dir, "policies/tests/tools.yaml")).toContain(
      '#   - name: "ticket: a call waits for a person\'s approval"\n#     call: { tool: ticket, arguments: {} }\n',
    );
    expect(parse(read(dir, "policies/policy.yaml")).ask).toEqual(["search_docs", "ticket"]);
    expect(lintJson(dir).code).toBe(0);
  });

  it("imports a saved MCP tools/list result, and combines sources in one tool file", () => {
    const dir = writeTree({
      "tools-list.json": JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        result: {
          tools: [{ name: "list_issues", description: "List issues.", inputSchema: { type: "object" } }],
        },
      }),
      "openai.json": JSON.stringify([
        {
          type: "function",
          function: { name: "list_issues", description: "Again.", parameters: { type: "object" } },
        },
        {
          type: "function",
          function: { name: "close_issue", description: "Close.", parameters: { type: "object" } },
        },
      ]),
    });
    const init = toolgate(
      ["init", "--from-mcp-json", "tools-list.json", "--from-openai", "openai.json"],
      dir,
    );
    expect(init.code).toBe(1);
    expect(init.stdout).toContain(
      "  list_issues (OpenAI tools in openai.json):\n" +
        '    a tool named "list_issues" was already imported from MCP tools/list result in tools-list.json; tool names must be unique\n',
    );
    expect(parse(read(dir, "policies/policy.yaml")).ask).toEqual(["list_issues", "close_issue"]);
    expect(read(dir, "policies/tools/tools.yaml")).toContain(
      "#   MCP tools/list result in tools-list.json\n#   OpenAI tools in openai.json\n",
    );
    expect(lintJson(dir).code).toBe(0);
  });

  it("writes nothing when no tool can be imported, or when the file cannot be read", () => {
    const dir = writeTree({
      "bad.json": JSON.stringify([{ name: "a b", description: "x", input_schema: { type: "object" } }]),
    });
    const none = toolgate(["init", "--from-anthropic", "bad.json"], dir);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      "no tool could be imported from Anthropic tools in bad.json; nothing was written",
    );
    const missing = toolgate(["init", "--from-openai", "nope.json"], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("toolgate: nope.json: no such file\nnothing was written\n");
    writeFileSync(join(dir, "dup.json"), '[{"name":"a","name":"b"}]');
    expect(toolgate(["init", "--from-openai", "dup.json"], dir).stderr).toContain(
      'the key "name" appears twice',
    );
    expect(readdirSync(dir).sort()).toEqual(["bad.json", "dup.json"]);
  });
});

describe("toolgate init --from-mcp (stdio, @modelcontextprotocol/server-filesystem)", () => {
  it("writes every tool of the real server with its inputSchema and description; lint and explain work", async () => {
    const dir = emptyDir();
    const served = mkdtempSync(join(tmpdir(), "toolgate-served-"));
    const init = await toolgateAsync(["init", "--from-mcp", `node ${FILESYSTEM_SERVER} ${served}`], dir);
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    const tools = parse(read(dir, "policies/tools/tools.yaml")).tools as {
      name: string;
      description: string;
      input_schema: { properties: Record<string, unknown> };
    }[];
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["read_text_file", "write_file", "edit_file", "move_file"]));
    expect(names.length).toBeGreaterThanOrEqual(10);
    const write = tools.find((t) => t.name === "write_file");
    expect(write?.description).toMatch(/overwrite/i);
    expect(Object.keys(write?.input_schema.properties ?? {})).toEqual(["path", "content"]);
    expect(init.stdout).toContain(`(${names.length} tools)`);
    expect(init.stdout).toContain(`(${names.length} policy tests)`);
    expect(read(dir, "policies/tools/tools.yaml")).toContain(
      "#   MCP server started by node (secure-filesystem-server",
    );
    // The server's own annotations are repeated next to each tool, as hints for whoever writes the policy.
    const policy = read(dir, "policies/policy.yaml");
    expect(policy).toContain("\n  - read_text_file # server hints: read-only\n");
    expect(policy).toContain("\n  - write_file # server hints: destructive\n");
    expect(lintJson(dir)).toEqual({
      code: 0,
      report: expect.objectContaining({ errorCount: 0, warningCount: 0 }),
    });
    const explain = toolgate(
      ["explain", "move_file", "--args", '{"source":"a","destination":"b"}', "--format", "json"],
      dir,
    );
    expect(JSON.parse(explain.stdout)).toMatchObject({ action: "ask", ruleIds: ["ask:move_file"] });
  });

  it("says what went wrong when the server cannot be started, and writes nothing", async () => {
    const dir = emptyDir();
    const init = await toolgateAsync(
      ["init", "--from-mcp", "toolgate-no-such-server --stdio", "--timeout", "10"],
      dir,
    );
    expect(init.code).toBe(2);
    expect(init.stderr).toMatch(
      /^toolgate: could not connect to the MCP server started by toolgate-no-such-server: .*ENOENT.*\nnothing was written\n$/s,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("shows the server's stderr when it exits before answering", async () => {
    const dir = writeTree({ "crash.mjs": 'console.error("missing API key"); process.exit(3);\n' });
    const init = await toolgateAsync(["init", "--from-mcp", "node crash.mjs", "--timeout", "10"], dir);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain("the server's stderr ended with:\nmissing API key\n");
    expect(existsSync(join(dir, "toolgate.config.yaml"))).toBe(false);
  });
});

describe("toolgate init --from-mcp-url (Streamable HTTP)", () => {
  let http: HttpServer;
  let url: string;
  const authorizations: (string | undefined)[] = [];

  beforeAll(async () => {
    // Two pages of tools/list, one tool toolgate must refuse by name and one the SDK client would refuse.
    const pages: Record<string, { tools: unknown[]; nextCursor?: string }> = {
      first: {
        tools: [
          {
            name: "lookup_order",
            description: "Look up an order by id.",
            inputSchema: {
              type: "object",
              properties: { order_id: { type: "string", minLength: 4, maxLength: 40 } },
              required: ["order_id"],
              additionalProperties: false,
            },
            annotations: { readOnlyHint: true },
          },
          { name: "orders.cancel", description: "Cancel.", inputSchema: { type: "object" } },
        ],
        nextCursor: "page-2",
      },
      "page-2": {
        tools: [
          {
            name: "refund",
            description: "Refund an order.",
            inputSchema: {
              type: "object",
              properties: { amount: { type: "integer", minimum: 1, maximum: 500 } },
              required: ["amount"],
            },
          },
          { name: "broken", description: "No object schema.", inputSchema: { type: "string" } },
        ],
      },
    };
    http = createServer(async (req, res) => {
      authorizations.push(req.headers.authorization);
      if (req.headers.authorization !== "Bearer sekrit") {
        res.writeHead(401).end();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const server = new Server({ name: "orders", version: "2.1.0" }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async (request) => {
        const page = pages[request.params?.cursor ?? "first"];
        return page as never;
      });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    });
    await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp?team=a`;
  });

  afterAll(async () => {
    await new Promise((done) => http.close(done));
  });

  it("reads every page, reports the tools it cannot accept, and never writes the header or query", async () => {
    const dir = emptyDir();
    const init = await toolgateAsync(
      ["init", "--from-mcp-url", url, "--header", "Authorization: Bearer sekrit"],
      dir,
    );
    expect(init.code).toBe(1);
    expect(init.stdout).toContain("policies/tools/tools.yaml  (2 tools)");
    const origin = new URL(url).origin;
    expect(init.stdout).toContain(
      [
        "2 tools not imported:",
        `  orders.cancel (MCP server at ${origin}/mcp (orders 2.1.0), tools/list):`,
        '    tool name "orders.cancel" is not valid (it contains "."): names must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$, as model providers require',
        `  broken (MCP server at ${origin}/mcp (orders 2.1.0), tools/list):`,
        '    "input_schema/type" must be "object"',
      ].join("\n"),
    );
    expect(parse(read(dir, "policies/policy.yaml")).ask).toEqual(["lookup_order", "refund"]);
    expect(parse(read(dir, "policies/tests/tools.yaml")).tests.map((t: { call: unknown }) => t.call)).toEqual(
      [
        { tool: "lookup_order", arguments: { order_id: "example" } },
        { tool: "refund", arguments: { amount: 1 } },
      ],
    );
    for (const file of FILES) {
      expect(read(dir, file)).not.toContain("sekrit");
      expect(read(dir, file)).not.toContain("team=a");
    }
    expect(lintJson(dir).code).toBe(0);
  });

  it("fails with the server's answer when the header is missing, and writes nothing", async () => {
    const dir = emptyDir();
    const init = await toolgateAsync(["init", "--from-mcp-url", url], dir);
    expect(init.code).toBe(2);
    expect(init.stderr).toMatch(
      /^toolgate: could not connect to the MCP server at http:\/\/127\.0\.0\.1:\d+\/mcp: .*\(HTTP 401\)\nnothing was written\n$/s,
    );
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("the schemas editors use", () => {
  it("each schema has the documented $id, and the reference documents every one", () => {
    const reference = readFileSync(resolve(ROOT, "docs/policy-reference.md"), "utf8");
    for (const name of ["config", "tools", "policy", "tests"]) {
      const schema = JSON.parse(readFileSync(join(ROOT, "schemas", `${name}.schema.json`), "utf8"));
      const id = `https://toolgate.dev/schemas/${name}.schema.json`;
      expect(schema.$id).toBe(id);
      expect(reference).toContain(`\`${id}\``);
    }
    expect(dirname(BIN)).toBe(join(ROOT, "bin"));
  });
});
