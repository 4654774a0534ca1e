/**
 * `toolgate init [DIR]`: writes a configuration, one tool spec file, a deny-by-default policy that asks for
 * every tool, and one policy test per tool — from the agent's real tools when a source is given (an MCP server,
 * an OpenAI or Anthropic `tools` file) — checks them as `toolgate lint` would, and prints what to run next.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { generateTypes } from "../codegen/generate-types.js";
import { compileController, declarationPathFor } from "../compile/compile-controller.js";
import { DIAGNOSTICS } from "../config/diagnostic-codes.js";
import { SEARCH_PLACES } from "../config/search-places.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { lintPolicy } from "../lint/lint-policy.js";
import { countOf } from "../runtime/plural.js";
import {
  type AcceptedTool,
  acceptTools,
  type RejectedTool,
  type SourcedSpec,
} from "../scaffold/accept-tools.js";
import {
  type AgentFile,
  AgentSettingsError,
  buildAgentFiles,
  CANONICAL_CONFIG_MARK,
  INIT_AGENTS,
  type InitAgent,
} from "../scaffold/agent-files.js";
import {
  buildInitFiles,
  EXAMPLE_TOOL,
  formatInitFiles,
  gitignoreWithState,
  INIT_LAYOUT,
  INIT_OUTPUTS,
  installedSchemasDir,
} from "../scaffold/init-files.js";
import { sampleArguments } from "../scaffold/sample-arguments.js";
import { readToolSource, type ToolSource, ToolSourceError } from "../scaffold/tool-sources.js";
import { EXIT, print, printError, readSourceFile, toolVersion, UsageError, useColor } from "./common.js";
import { portableBundle } from "./compile.js";

/** Options of `toolgate init`. */
export interface InitCommandOptions {
  readonly force?: boolean;
  readonly fromMcp?: readonly string[];
  readonly fromMcpUrl?: readonly string[];
  readonly fromMcpJson?: readonly string[];
  readonly header?: readonly string[];
  readonly fromOpenai?: readonly string[];
  readonly fromAnthropic?: readonly string[];
  readonly timeout?: string;
  readonly color?: boolean;
  /** A coding agent to set up: codex, cursor or opencode (the canonical pack), claude-code or gemini-cli. */
  readonly agent?: string;
  /** With `agent` claude-code or gemini-cli: the canonical pack instead of the agent's own. */
  readonly canonical?: boolean;
}

/** Configuration files that discovery would find in a folder before `toolgate.config.yaml`, or beside it. */
const OTHER_CONFIGS = SEARCH_PLACES.filter(
  (place) => place !== "package.json" && place !== "toolgate.config.yaml",
);

/** `toolgate init`: see the module comment. Exit 0 when everything was imported, 1 when a tool was left out. */
export async function runInit(dirArgument: string | undefined, options: InitCommandOptions): Promise<number> {
  const cwd = process.cwd();
  const dir = resolve(cwd, dirArgument ?? ".");
  if (options.agent !== undefined) return runInitAgent(cwd, dir, options.agent, options);
  const timeoutMs = parseTimeout(options.timeout);
  const sources = collectSources(options);

  // Refuse before any server is started: nothing is written unless every file can be.
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new UsageError(`${show(cwd, dir)} is a file; give the folder to write into`);
  }
  const shadowing = OTHER_CONFIGS.filter((f) => existsSync(join(dir, f)));
  if (hasPackageJsonConfig(dir)) shadowing.unshift("package.json (its toolgate key)");
  if (shadowing.length > 0) {
    throw new UsageError(
      `${show(cwd, dir)} already has a toolgate configuration: ${shadowing.join(", ")}; ` +
        "configuration discovery would use it instead of a new toolgate.config.yaml — edit it, or remove it first",
    );
  }
  const existing = [...Object.values(INIT_LAYOUT), ...Object.values(INIT_OUTPUTS)].filter((f) =>
    existsSync(join(dir, f)),
  );
  if (existing.length > 0 && options.force !== true) {
    throw new UsageError(
      `not overwriting ${existing.map((f) => show(cwd, join(dir, f))).join(", ")}; ` +
        "pass --force to replace them (other files are left alone)",
    );
  }

  const specs: SourcedSpec[] = [];
  const rejected: RejectedTool[] = [];
  const labels: string[] = [];
  for (const source of sources) {
    try {
      const outcome = await readToolSource(source, cwd, timeoutMs);
      labels.push(outcome.label);
      specs.push(...outcome.specs);
      rejected.push(...outcome.rejected);
    } catch (error) {
      if (error instanceof ToolSourceError) {
        printError(`${error.message}\nnothing was written`);
        return EXIT.usage;
      }
      throw error;
    }
  }

  let tools: AcceptedTool[];
  if (sources.length === 0) {
    const sample = sampleArguments(EXAMPLE_TOOL.inputSchema);
    tools = [{ ...EXAMPLE_TOOL, source: "example", notes: [], ...(sample === undefined ? {} : { sample }) }];
  } else {
    const checked = acceptTools(specs);
    tools = checked.accepted;
    rejected.push(...checked.rejected);
  }
  if (tools.length === 0) {
    printRejected(rejected, labels);
    printError(
      `no tool could be imported from ${labels.join("; ")}; nothing was written. ` +
        "Fix the definitions at their source, or run toolgate init without --from-* and write the tools by hand",
    );
    return EXIT.findings;
  }

  const schemas = installedSchemasDir(dir);
  const files = await formatInitFiles(
    buildInitFiles({ dir, schemasDir: schemas.path, tools, sources: labels }),
  );
  for (const file of files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.text);
  }
  const ignored = ignoreStateDir(dir);

  const configPath = join(dir, INIT_LAYOUT.config);
  const report = await lintPolicy({ config: relative(cwd, configPath) || configPath, cwd });
  const color = useColor(options.color);
  if (report.errorCount > 0 || report.warningCount > 0) {
    // The files are built to pass lint; if they do not, say so plainly rather than pretend.
    print(
      formatDiagnostics("stylish", {
        diagnostics: report.diagnostics,
        fingerprint: report.fingerprint,
        color,
        toolVersion: toolVersion(),
        table: DIAGNOSTICS,
        readSource: readSourceFile,
      }),
    );
    const others = [dirname(INIT_LAYOUT.tools), dirname(INIT_LAYOUT.tests)].flatMap((folder) =>
      readdirSync(join(dir, folder))
        .filter((f) => /\.ya?ml$/.test(f) && !Object.values(INIT_LAYOUT).includes(`${folder}/${f}` as never))
        .map((f) => `${folder}/${f}`),
    );
    printError(
      others.length > 0
        ? `the files written do not pass toolgate lint together with ${others.join(", ")}, which the configuration also reads; fix or move them`
        : "the files written do not pass toolgate lint (a defect in toolgate init; please report it)",
    );
    return EXIT.findings;
  }

  if (report.bundle !== undefined) await writeGenerated(dir, report.bundle);
  const tested = tools.filter((t) => t.sample !== undefined).length;
  print(dir === cwd ? "toolgate: wrote" : `toolgate: wrote in ${show(cwd, dir)}:`);
  print(`  ${INIT_LAYOUT.config}`);
  print(`  ${INIT_LAYOUT.tools}  (${countOf(tools.length, "tool")})`);
  print(`  ${INIT_LAYOUT.policy}  (deny by default; every tool asks)`);
  print(`  ${INIT_LAYOUT.tests}  (${countOf(tested, "policy test")})`);
  print(`  ${INIT_OUTPUTS.codegen}  (the handler types: toolgate codegen)`);
  print(`  ${INIT_OUTPUTS.compile}  (the compiled controller: toolgate compile)`);
  if (ignored) print("  .gitignore  (.toolgate/ added: approvals, audit and caches stay out of git)");
  for (const tool of tools) {
    for (const note of tool.notes) print(`  note: ${tool.name}: ${note}`);
  }
  if (!schemas.installed) {
    print(
      "  note: the editor modelines point at node_modules/toolgate/schemas/, which exists once toolgate is installed here (npm install --save-dev toolgate)",
    );
  }
  print(
    `toolgate lint: no problems (${countOf(tools.length, "tool")}, ${countOf(report.tests?.passed ?? 0, "policy test")} passed)`,
  );
  printRejected(rejected, labels);

  const config = dir === cwd ? "" : ` --config ${shellQuote(relative(cwd, configPath).split(sep).join("/"))}`;
  const first = tools[0] as AcceptedTool;
  const args = first.sample === undefined ? "" : ` --args ${shellQuote(JSON.stringify(first.sample))}`;
  print("\nNext:");
  print(`  npx toolgate lint${config}`);
  print(`  npx toolgate explain ${first.name}${args}${config}`);
  print(`  npx toolgate test --coverage${config}`);
  print(
    `Then edit ${relative(cwd, join(dir, INIT_LAYOUT.policy)).split(sep).join("/")}: allow what is safe, deny what never is, and rewrite each reason; then run toolgate codegen and toolgate compile again.`,
  );
  return rejected.length > 0 ? EXIT.findings : EXIT.ok;
}

/** Lists the tools left out, in the order their sources gave them. */
function printRejected(unordered: readonly RejectedTool[], labels: readonly string[]): void {
  if (unordered.length === 0) return;
  const rejected = [...unordered].sort(
    (a, b) => labels.indexOf(a.source) - labels.indexOf(b.source) || a.index - b.index,
  );
  print(`${countOf(rejected.length, "tool")} not imported:`);
  for (const r of rejected) {
    print(`  ${r.name === undefined ? "(no name)" : r.name} (${r.source}):`);
    for (const reason of r.reasons) print(`    ${reason}`);
  }
}

function collectSources(options: InitCommandOptions): ToolSource[] {
  const headers = parseHeaders(options.header ?? []);
  if (Object.keys(headers).length > 0 && (options.fromMcpUrl ?? []).length === 0) {
    throw new UsageError("--header applies to --from-mcp-url; give the URL too");
  }
  return [
    ...(options.fromMcp ?? []).map((command): ToolSource => ({ kind: "mcp", command })),
    ...(options.fromMcpUrl ?? []).map((url): ToolSource => ({ kind: "mcp-url", url, headers })),
    ...(options.fromMcpJson ?? []).map((file): ToolSource => ({ kind: "mcp-json", file })),
    ...(options.fromOpenai ?? []).map((file): ToolSource => ({ kind: "openai", file })),
    ...(options.fromAnthropic ?? []).map((file): ToolSource => ({ kind: "anthropic", file })),
  ];
}

function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(":");
    const name = colon < 0 ? "" : value.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(`--header ${JSON.stringify(value)}: write it as "Name: value"`);
    }
    headers[name] = value.slice(colon + 1).trim();
  }
  return headers;
}

function parseTimeout(value: string | undefined): number {
  if (value === undefined) return 30_000;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) {
    throw new UsageError(`--timeout needs a positive number of seconds, got "${value}"`);
  }
  return Number(value) * 1000;
}

function hasPackageJsonConfig(dir: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as unknown;
    return typeof pkg === "object" && pkg !== null && Object.hasOwn(pkg, "toolgate");
  } catch {
    return false;
  }
}

function show(cwd: string, path: string): string {
  return relative(cwd, path).split(sep).join("/") || ".";
}

/** Quotes a word for a POSIX shell when it needs it. */
function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * `toolgate init --agent HOST`: a configuration over the canonical coding-agent pack, a policy that extends its
 * starting policy, a test file, and the host's hook registration (failing closed where the host allows), then
 * lint as for init. Refuses to overwrite unless `--force`, and refuses `--from-*` sources (the pack's tools are
 * the host's).
 */
async function runInitAgent(
  cwd: string,
  dir: string,
  agent: string,
  options: InitCommandOptions,
): Promise<number> {
  if (!(INIT_AGENTS as readonly string[]).includes(agent)) {
    throw new UsageError(`--agent must be one of ${INIT_AGENTS.join(", ")}, got "${agent}"`);
  }
  if (collectSources(options).length > 0) {
    throw new UsageError("--agent sets up the canonical coding-agent tools; it takes no --from-* source");
  }
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new UsageError(`${show(cwd, dir)} is a file; give the folder to write into`);
  }
  if (options.canonical === true && agent !== "claude-code" && agent !== "gemini-cli") {
    throw new UsageError(
      `--canonical is for claude-code and gemini-cli; ${agent} always uses the canonical tools`,
    );
  }
  // A project already on the canonical tools (another agent's init): add this agent's registration only.
  const shared = isCanonicalConfig(join(dir, "toolgate.config.yaml"));
  let files: AgentFile[];
  try {
    files = await formatInitFiles(
      buildAgentFiles(agent as InitAgent, dir, {
        canonical: options.canonical === true || shared,
        registrationOnly: shared && options.force !== true,
      }),
    );
  } catch (error) {
    if (error instanceof AgentSettingsError) throw new UsageError(error.message);
    throw error;
  }
  const existing = files.filter((f) => f.merged !== true && existsSync(join(dir, f.path)));
  if (existing.length > 0 && options.force !== true) {
    throw new UsageError(
      `not overwriting ${existing.map((f) => show(cwd, join(dir, f.path))).join(", ")}; pass --force to replace them`,
    );
  }
  for (const file of files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.text);
  }
  const ignored = ignoreStateDir(dir);
  const configPath = join(dir, "toolgate.config.yaml");
  const report = await lintPolicy({ config: relative(cwd, configPath) || configPath, cwd });
  if (report.errorCount > 0 || report.warningCount > 0) {
    print(
      formatDiagnostics("stylish", {
        diagnostics: report.diagnostics,
        fingerprint: report.fingerprint,
        color: useColor(options.color),
        toolVersion: toolVersion(),
        table: DIAGNOSTICS,
        readSource: readSourceFile,
      }),
    );
    printError("the files written do not pass toolgate lint; fix the files listed above");
    return EXIT.findings;
  }
  print(dir === cwd ? "toolgate: wrote" : `toolgate: wrote in ${show(cwd, dir)}:`);
  for (const file of files)
    print(`  ${file.path}${file.merged === true ? "  (toolgate's hook added; the rest kept)" : ""}`);
  if (ignored) print("  .gitignore  (.toolgate/ added)");
  if (shared && options.force !== true)
    print("  (toolgate.config.yaml and policies/ kept: the project is already on the canonical tools)");
  print(`toolgate lint: no problems (${countOf(report.tests?.passed ?? 0, "policy test")} passed)`);
  print(`\nNext: edit policies/policy.yaml; see docs/${agent}.md for how ${agent} runs the hook.`);
  return EXIT.ok;
}

/** Whether the file is a configuration `init --agent` wrote over the canonical coding-agent pack. */
function isCanonicalConfig(path: string): boolean {
  try {
    return readFileSync(path, "utf8").includes(CANONICAL_CONFIG_MARK);
  } catch {
    return false;
  }
}

/** Adds `.toolgate/` to the folder's `.gitignore` (made if absent); true when the file changed. */
function ignoreStateDir(dir: string): boolean {
  const path = join(dir, ".gitignore");
  const next = gitignoreWithState(existsSync(path) ? readFileSync(path, "utf8") : undefined);
  if (next === undefined) return false;
  writeFileSync(path, next);
  return true;
}

/** Writes the generated types and the compiled controller where the written configuration names them. */
async function writeGenerated(dir: string, bundle: PolicyBundle): Promise<void> {
  const types = join(dir, INIT_OUTPUTS.codegen);
  const module = join(dir, INIT_OUTPUTS.compile);
  const compiled = await compileController(portableBundle(bundle));
  mkdirSync(dirname(types), { recursive: true });
  writeFileSync(types, await generateTypes(bundle));
  writeFileSync(module, compiled.module);
  writeFileSync(declarationPathFor(module), compiled.declarations);
}
