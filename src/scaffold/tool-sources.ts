/**
 * Where `toolgate init` takes tool definitions from: MCP servers (stdio command or Streamable HTTP URL), saved
 * MCP `tools/list` results, OpenAI `tools` files and Anthropic `tools` files. Each source gives definitions labelled with the source,
 * and the definitions it had to leave out, each with the reason.
 */
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { findDuplicateKey } from "../adapters/json-data.js";
import {
  type ReadToolSpecsResult,
  readAnthropicToolSpecs,
  readMcpToolSpecs,
  readOpenAIToolSpecs,
} from "../adapters/read-tool-specs.js";
import { ToolgateError } from "../runtime/errors.js";
import { parseShellCommand } from "../runtime/match/shell/reader.js";
import type { RejectedTool, SourcedSpec } from "./accept-tools.js";
import { listMcpTools } from "./mcp-tools.js";

/** One source, as given on the command line. */
export type ToolSource =
  | { readonly kind: "mcp"; readonly command: string }
  | { readonly kind: "mcp-url"; readonly url: string; readonly headers: Readonly<Record<string, string>> }
  | { readonly kind: "mcp-json"; readonly file: string }
  | { readonly kind: "openai"; readonly file: string }
  | { readonly kind: "anthropic"; readonly file: string };

/** A source that cannot be used at all (file missing, bad JSON, server unreachable). */
export class ToolSourceError extends ToolgateError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("tool-source", message, options);
  }
}

/** What one source gave. */
export interface SourceOutcome {
  /** A one-line description of the source for the tool file's header (no secrets: no arguments, no query). */
  readonly label: string;
  readonly specs: readonly SourcedSpec[];
  readonly rejected: readonly RejectedTool[];
}

/**
 * Reads one source.
 * @param cwd where relative file paths are read from and stdio servers start.
 * @throws ToolSourceError when the source as a whole cannot be read.
 */
export async function readToolSource(
  source: ToolSource,
  cwd: string,
  timeoutMs: number,
): Promise<SourceOutcome> {
  switch (source.kind) {
    case "mcp-json":
      return fromFile(source.file, cwd, "MCP tools/list result", readMcpToolSpecs);
    case "openai":
      return fromFile(source.file, cwd, "OpenAI tools", readOpenAIToolSpecs);
    case "anthropic":
      return fromFile(source.file, cwd, "Anthropic tools", readAnthropicToolSpecs);
    case "mcp": {
      const argv = splitCommand(source.command);
      const program = argv[0] as string;
      const listing = await listMcpTools(
        { kind: "stdio", command: program, args: argv.slice(1), cwd },
        timeoutMs,
      ).catch(rethrow);
      const name = listing.serverName === undefined ? "" : ` (${listing.serverName})`;
      return labelled(
        `MCP server started by ${basename(program)}${name}, tools/list`,
        readMcpToolSpecs(listing),
      );
    }
    case "mcp-url": {
      let url: URL;
      try {
        url = new URL(source.url);
      } catch {
        throw new ToolSourceError(`--from-mcp-url: ${JSON.stringify(source.url)} is not a URL`);
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new ToolSourceError(`--from-mcp-url: use an http or https URL, got ${url.protocol}`);
      }
      const listing = await listMcpTools(
        { kind: "http", url: url.href, headers: source.headers },
        timeoutMs,
      ).catch(rethrow);
      const name = listing.serverName === undefined ? "" : ` (${listing.serverName})`;
      return labelled(
        `MCP server at ${url.origin}${url.pathname}${name}, tools/list`,
        readMcpToolSpecs(listing),
      );
    }
  }
}

function rethrow(error: unknown): never {
  throw new ToolSourceError(error instanceof Error ? error.message : String(error), { cause: error });
}

function fromFile(
  file: string,
  cwd: string,
  what: string,
  read: (payload: unknown) => ReadToolSpecsResult,
): SourceOutcome {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new ToolSourceError(
      code === "ENOENT" ? `${file}: no such file` : `${file}: cannot be read (${String(code ?? error)})`,
    );
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    throw new ToolSourceError(
      `${file}: not valid JSON (${error instanceof Error ? error.message : String(error)}); give ${what} as a JSON file`,
    );
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate !== undefined) {
    throw new ToolSourceError(
      `${file}: the key ${JSON.stringify(duplicate)} appears twice in one object, and readers disagree on which one counts; keep one`,
    );
  }
  return labelled(`${what} in ${file}`, read(payload));
}

function labelled(label: string, result: ReadToolSpecsResult): SourceOutcome {
  if (result.problems.length > 0) throw new ToolSourceError(`${label}: ${result.problems.join("; ")}`);
  return {
    label,
    specs: result.specs.map((spec) => ({ spec, source: label })),
    rejected: result.skipped.map((s) => ({
      ...(s.name === undefined ? {} : { name: s.name }),
      index: s.index,
      source: label,
      reasons: [s.reason],
    })),
  };
}

/**
 * Splits the `--from-mcp` command into a program and its arguments, reading quotes as a POSIX shell does.
 * Anything a shell would expand or run (variables, `~`, globs, `;`, `|`, redirections, `NAME=value`) is
 * refused: toolgate starts the program itself, without a shell, and would not do what the shell would.
 * @throws ToolSourceError saying what to change.
 */
export function splitCommand(command: string): string[] {
  const refuse = (why: string) =>
    new ToolSourceError(
      `--from-mcp ${JSON.stringify(command)}: ${why}; toolgate starts the server itself, without a shell — ` +
        "give the program and its arguments, with quotes where an argument has spaces",
    );
  if (command.trim() === "") throw refuse("the command is empty");
  const parsed = parseShellCommand(command);
  if (!parsed.ok) throw refuse(`it cannot be read as a command (${parsed.message})`);
  if (parsed.commands.length !== 1) throw refuse("it holds more than one command");
  const [only] = parsed.commands;
  if (only === undefined || parsed.opaque) throw refuse("it holds an expansion");
  if (only.assignments > 0) throw refuse("it sets variables (NAME=value); set them in your shell instead");
  if (only.redirections.length > 0) throw refuse("it has a redirection");
  const nonLiteral = only.words.find((w) => !w.literal);
  if (nonLiteral !== undefined) {
    throw refuse(`${JSON.stringify(nonLiteral.text)} would be expanded by a shell (variable, ~ or glob)`);
  }
  return only.words.map((w) => w.text);
}
