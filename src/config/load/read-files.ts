/**
 * Reading and parsing for the policy load: the `Reader` reads (through the driver, `read-protocol.ts`),
 * parses and schema-checks each file, keeping what it found for the watcher and, for a file that failed its
 * schema, the parts that did not; and the config itself, from its file or the `toolgate` key of package.json.
 */

import { relative, resolve, sep } from "node:path";
import { stageValue } from "../../diagnostics/diagnostic.js";
import { ToolgateError } from "../../runtime/errors.js";
import type { Diagnostic, StageResult } from "../diagnostic-codes.js";
import { expandPattern } from "../expand-globs.js";
import { diagnosticAt, fileDiagnostic, MAX_FILE_BYTES, type ParsedFile, parseYaml } from "../parse-yaml.js";
import { type FileKind, validateAgainstSchema } from "../validate-schema.js";
import { pruneInvalid } from "./prune-invalid.js";
import { type LoadSteps, PAUSE, type ReadAnswer, readRequest, tokenOf } from "./read-protocol.js";

/** A path as diagnostics show it: relative to the working directory, with `/` separators. */
export function toDisplayPath(cwd: string, absolute: string): string {
  const rel = relative(cwd, absolute);
  return (rel === "" ? "." : rel).split(sep).join("/");
}

/** What parses a policy file's bytes: `parseYaml`, or what answers exactly as it does. */
export type YamlParser = (bytes: Uint8Array, file: string) => StageResult<ParsedFile>;

/** Reads the files of one load and collects what they are found to hold wrong. */
export class Reader {
  readonly diagnostics: Diagnostic[] = [];
  /** Every file read or tried, in order (absolute paths), with what was found (`tokenOf`). */
  readonly files = new Map<string, string>();
  /**
   * @param parse parses a file's bytes (`parseYaml`, or a parser that answers as it does from a cache of its
   *   results: the hook's, see `hook-parse-cache.ts`)
   */
  constructor(
    readonly cwd: string,
    readonly parse: YamlParser = parseYaml,
  ) {}

  /**
   * Takes a stage's result into the load: its diagnostics join the others, and what it hands on (its value,
   * or its `partial` value when it failed) is returned; `undefined` when it has nothing to hand on.
   */
  take<T>(result: StageResult<T>): T | undefined {
    this.diagnostics.push(...result.diagnostics);
    return stageValue(result);
  }

  /** Asks the driver for a file's bytes, and remembers that the load depends on what it found. */
  *bytes(absolute: string): LoadSteps<ReadAnswer> {
    const answer = yield* readRequest(absolute);
    this.files.set(absolute, tokenOf(answer));
    return answer;
  }

  /** Reads, parses and schema-checks a file; `undefined` when it cannot be used (diagnostics say why). */
  *read(
    absolute: string,
    kind: FileKind,
    from?: { parsed: ParsedFile; pointer: string },
    onSchemaProblems?: (parsed: ParsedFile) => void,
  ): LoadSteps<ParsedFile | undefined> {
    const file = toDisplayPath(this.cwd, absolute);
    const notFound = (message: string) =>
      this.diagnostics.push(
        from === undefined
          ? fileDiagnostic(file, "file-not-found", message)
          : diagnosticAt(from.parsed, from.pointer, "file-not-found", message),
      );
    const answer = yield* this.bytes(absolute);
    if (!answer.ok) {
      if (answer.reason === "not-a-file") notFound(`${file} is not a file`);
      else if (answer.reason === "too-large") {
        this.diagnostics.push(
          fileDiagnostic(
            file,
            "file-too-large",
            `file is ${answer.size} bytes; policy files may be at most ${MAX_FILE_BYTES} bytes (1 MiB): split it`,
          ),
        );
      } else {
        notFound(`${file} does not exist; check the path (paths are relative to the file that names them)`);
      }
      return undefined;
    }
    const parsed = this.take(this.parse(answer.bytes, file));
    // Parsing a large file is the longest step that cannot be split: let the loop run before the next one.
    yield PAUSE;
    if (parsed === undefined) return undefined;
    if (parsed.data === null || parsed.data === undefined) {
      this.diagnostics.push(
        fileDiagnostic(
          file,
          "config-schema",
          `the file is empty; a ${kind} file must be a mapping (see schemas/${kind}.schema.json)`,
        ),
      );
      return undefined;
    }
    const schema = validateAgainstSchema(parsed, kind);
    this.take(schema);
    yield PAUSE;
    if (schema.ok) return schema.value;
    onSchemaProblems?.(parsed);
    if (kind === "config") return undefined;
    // Check the parts that did match (other rules, tools, tests) too, as tsc and ESLint report everything
    // at once; the file counts as incomplete, so nothing is concluded from what is missing.
    const pruned = pruneInvalid(parsed, schema.diagnostics);
    if (pruned === undefined || !validateAgainstSchema(pruned, kind).ok) return undefined;
    this.partial.add(absolute);
    if (kind === "policy") {
      // The ids of rules left out still exist: a test naming one is not an unknown-rule.
      const rules = (parsed.data as { rules?: unknown }).rules;
      for (const rule of Array.isArray(rules) ? rules : []) {
        const id = (rule as { id?: unknown } | null)?.id;
        if (typeof id === "string") this.droppedIds.add(id);
      }
    }
    return pruned;
  }

  /** Rule ids of policy files read without the parts that failed their schema. */
  readonly droppedIds = new Set<string>();

  /** Files that failed their schema and were read without the parts that failed (absolute paths). */
  readonly partial = new Set<string>();

  /**
   * Expands the patterns of a list key; a pattern that names no file is `file-not-found`, one that is not a
   * glob is `invalid-glob`. `complete` is false when any pattern failed.
   */
  expand(
    base: string,
    patterns: readonly string[],
    config: ParsedFile,
    key: string,
  ): { files: string[]; complete: boolean } {
    const files: string[] = [];
    let complete = true;
    patterns.forEach((pattern, index) => {
      const expanded = expandPattern(base, pattern);
      if (!expanded.ok) {
        complete = false;
        this.diagnostics.push(diagnosticAt(config, `/${key}/${index}`, "invalid-glob", expanded.message));
        return;
      }
      if (expanded.files.length === 0) {
        complete = false;
        this.diagnostics.push(
          diagnosticAt(
            config,
            `/${key}/${index}`,
            "file-not-found",
            `"${pattern}" matches no file; check the pattern`,
          ),
        );
      }
      for (const f of expanded.files) {
        const absolute = resolve(base, f);
        if (!files.includes(absolute)) files.push(absolute);
      }
    });
    return { files, complete };
  }
}
/**
 * Reads the config file (or the `toolgate` key of package.json) into a ParsedFile.
 * @throws the read's error when a discovered package.json cannot be read (an I/O error, not a finding).
 */
export function* readConfig(
  reader: Reader,
  path: string,
  packageJson: boolean,
): LoadSteps<ParsedFile | undefined> {
  if (!packageJson) return yield* reader.read(path, "config");
  const file = toDisplayPath(reader.cwd, path);
  const answer = yield* reader.bytes(path);
  // Discovery has just found this package.json: a failure to read it now is an I/O error, not a finding.
  if (!answer.ok)
    throw answer.reason === "too-large"
      ? new ToolgateError("file-too-large", `${file} is too large`)
      : answer.error;
  const parsed = reader.take(parseYaml(answer.bytes, file));
  if (parsed === undefined) return undefined;
  const prefix = "/toolgate";
  const positions = new Map(
    [...parsed.positions]
      .filter(([pointer]) => pointer === prefix || pointer.startsWith(`${prefix}/`))
      .map(([pointer, position]) => [pointer.slice(prefix.length), position] as const),
  );
  const data = parsed.data;
  if (data === null || typeof data !== "object" || !Object.hasOwn(data, "toolgate")) {
    // Only an explicit --config gets here: discovery skips a package.json without the key.
    reader.diagnostics.push(
      fileDiagnostic(
        file,
        "config-schema",
        `${file} has no "toolgate" key; add one with tools and policy, or point --config at a toolgate.config.yaml`,
      ),
    );
    return undefined;
  }
  const config: ParsedFile = { file, data: (data as { toolgate?: unknown }).toolgate, positions };
  const schema = validateAgainstSchema(config, "config");
  reader.take(schema);
  return schema.ok ? schema.value : undefined;
}
