/**
 * Checks of the tool aliases in tool files (`aliases:` beside `tools:`): each names a known host and a declared
 * canonical tool, maps only arguments that tool declares, reads only parts its name pattern has, and no host
 * tool is aliased twice. What passes becomes the bundle's `ToolAlias` list, in config order of the files and
 * the order written in each; a bad alias is an error, never left out in silence.
 */
import type { BundleTool } from "../bundle/policy-bundle.js";
import { stageResult } from "../diagnostics/diagnostic.js";
import { ALIAS_HOSTS, type AliasHost, type AliasSource, namePatternParts } from "../runtime/tool-aliases.js";
import type { JsonSchema, JsonValue } from "../runtime/types.js";
import type { Diagnostic, StageResult } from "./diagnostic-codes.js";
import { nearest } from "./nearest.js";
import { childPointer, diagnosticAt, type ParsedFile, positionOf } from "./parse-yaml.js";
import { resolveLocalRef, type WrittenAlias } from "./policy-checks/policy-facts.js";

export type { WrittenAlias } from "./policy-checks/policy-facts.js";

/** An alias as a tool file writes it (the schema has checked its shape). */
interface RawAlias {
  readonly host: string;
  readonly name: string;
  readonly tool: string;
  readonly arguments?: { readonly [target: string]: RawSource };
}

/** One mapping value as written: a host argument's name, or a mapping with one key saying where from. */
type RawSource =
  | string
  | { readonly argument: string }
  | { readonly path: string }
  | { readonly value: JsonValue }
  | { readonly tool_name: true }
  | { readonly name_part: string }
  | { readonly all_arguments: true }
  | { readonly absent: true };

/** What the loader knows of the tools when it checks aliases. */
export interface AliasToolFacts {
  /** The tools whose input schema compiled. */
  readonly tools: readonly BundleTool[];
  /** Every validly named tool, also those whose schema failed. */
  readonly declared: ReadonlySet<string>;
  /** Names declared with an invalid name (already an `invalid-tool-name`). */
  readonly invalidNames?: ReadonlySet<string>;
  /** False when a tool file could not be read: a tool the alias names may be declared there. */
  readonly toolsComplete?: boolean;
}

const isHost = (host: string): host is AliasHost => (ALIAS_HOSTS as readonly string[]).includes(host);

/** A mapping value as the alias's data. */
export function aliasSource(raw: RawSource): AliasSource {
  if (typeof raw === "string") return { kind: "argument", name: raw };
  if ("argument" in raw) return { kind: "argument", name: raw.argument };
  if ("path" in raw) return { kind: "path", name: raw.path };
  if ("value" in raw) return { kind: "value", value: raw.value };
  if ("tool_name" in raw) return { kind: "tool-name" };
  if ("name_part" in raw) return { kind: "name-part", part: raw.name_part };
  if ("absent" in raw) return { kind: "absent" };
  return { kind: "all-arguments" };
}

/** Why a name pattern is malformed, or `undefined` when it is a plain name or a well-formed pattern. */
export function namePatternProblem(name: string): string | undefined {
  const parts = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
  const rest = name.replace(parts, "");
  if (rest.includes("{") || rest.includes("}")) {
    return `the name ${JSON.stringify(name)} has a "{" or "}" that is not a {part}; a part is {letters, digits and _} not starting with a digit (for example "mcp__{server}__{tool}")`;
  }
  const seen = new Set<string>();
  for (const part of namePatternParts(name)) {
    if (seen.has(part))
      return `the name ${JSON.stringify(name)} has the part {${part}} twice; name each part once`;
    seen.add(part);
  }
  const touching = /\{([A-Za-z_][A-Za-z0-9_]*)\}\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(name);
  if (touching !== null) {
    return `the parts {${touching[1]}} and {${touching[2]}} of the name ${JSON.stringify(name)} touch, so a host tool name could be split between them more than one way; put literal text between them`;
  }
  return undefined;
}

/** The property names an input schema declares at its top level (following a local `$ref`). */
function declaredArguments(schema: JsonSchema): ReadonlySet<string> {
  const root = resolveLocalRef(schema, schema);
  const properties = root.properties;
  return new Set(properties !== null && typeof properties === "object" ? Object.keys(properties) : []);
}

/**
 * The aliases of all tool files, checked: `alias-unknown-host`, `alias-unknown-tool`, `alias-duplicate`,
 * `alias-unknown-argument` and `alias-bad-mapping`, each at the YAML node it is about.
 * @returns every alias, with where it is written; when any is wrong, the ones that passed as `partial`.
 */
export function checkAliases(
  files: readonly ParsedFile[],
  facts: AliasToolFacts,
): StageResult<WrittenAlias[]> {
  const diagnostics: Diagnostic[] = [];
  const written: WrittenAlias[] = [];
  const schemas = new Map(facts.tools.map((tool) => [tool.name, tool.inputSchema]));
  const firstPlace = new Map<string, string>();
  for (const parsed of files) {
    const list = (parsed.data as { aliases?: readonly RawAlias[] }).aliases ?? [];
    list.forEach((raw, index) => {
      const at = `/aliases/${index}`;
      const before = diagnostics.length;
      const report = (pointer: string, code: Diagnostic["code"], message: string, prefer?: "key") =>
        diagnostics.push(
          diagnosticAt(parsed, pointer, code, message, prefer === undefined ? {} : { prefer }),
        );

      if (!isHost(raw.host)) {
        const near = nearest(raw.host, ALIAS_HOSTS);
        report(
          `${at}/host`,
          "alias-unknown-host",
          `host ${JSON.stringify(raw.host)} is not a host toolgate reads through aliases; ${near === undefined ? `use one of ${ALIAS_HOSTS.join(", ")}` : `did you mean "${near}"?`}`,
        );
      }
      const patternProblem = namePatternProblem(raw.name);
      if (patternProblem !== undefined) report(`${at}/name`, "alias-bad-mapping", patternProblem);

      const key = `${raw.host}\u0000${raw.name}`;
      const place = `${parsed.file}:${positionOf(parsed, `${at}/name`).line}`;
      const earlier = firstPlace.get(key);
      if (earlier !== undefined) {
        report(
          `${at}/name`,
          "alias-duplicate",
          `the ${raw.host} tool ${JSON.stringify(raw.name)} is aliased twice: ${earlier} and ${place}; keep one alias`,
        );
      } else firstPlace.set(key, place);

      const known = facts.declared.has(raw.tool) || facts.invalidNames?.has(raw.tool) === true;
      if (!known && facts.toolsComplete !== false) {
        const near = nearest(raw.tool, facts.declared);
        report(
          `${at}/tool`,
          "alias-unknown-tool",
          `tool ${JSON.stringify(raw.tool)} is not declared in any tool file${near === undefined ? "; an alias reads a host's tool as a declared tool: declare it, or name one that is" : `; did you mean "${near}"?`}`,
        );
      }
      const schema = schemas.get(raw.tool);
      const declaredArgs = schema === undefined ? undefined : declaredArguments(schema);
      const parts = namePatternParts(raw.name);
      const mapped: (readonly [string, AliasSource])[] = [];
      for (const [target, value] of Object.entries(raw.arguments ?? {})) {
        const pointer = childPointer(`${at}/arguments`, target);
        if (declaredArgs !== undefined && !declaredArgs.has(target)) {
          const near = nearest(target, declaredArgs);
          report(
            pointer,
            "alias-unknown-argument",
            `tool "${raw.tool}" has no argument ${JSON.stringify(target)} in its input_schema; ${near === undefined ? `map one it declares under properties (${[...declaredArgs].join(", ") || "none"})` : `did you mean "${near}"?`}`,
            "key",
          );
        }
        const source = aliasSource(value);
        if (source.kind === "name-part" && !parts.includes(source.part)) {
          report(
            childPointer(pointer, "name_part"),
            "alias-bad-mapping",
            parts.length === 0
              ? `name_part ${JSON.stringify(source.part)} reads a {part} of the name, but ${JSON.stringify(raw.name)} has none; write the name as a pattern such as "mcp__{server}__{tool}", or map another source`
              : `name_part ${JSON.stringify(source.part)} is not a {part} of the name ${JSON.stringify(raw.name)}; use one of ${parts.join(", ")}`,
          );
        }
        mapped.push([target, source]);
      }
      if (diagnostics.length > before) return;
      const span = positionOf(parsed, at);
      written.push({
        alias: {
          host: raw.host as AliasHost,
          name: raw.name,
          tool: raw.tool,
          arguments: mapped,
          source: { file: parsed.file, line: span.line, column: span.column },
        },
        parsed,
        pointer: at,
      });
    });
  }
  return stageResult(written, diagnostics);
}
