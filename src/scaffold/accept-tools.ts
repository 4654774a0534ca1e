/**
 * Decides which imported tool definitions `toolgate init` can write, by running each one through exactly the
 * checks `toolgate lint` runs on a tool file (schema of the file, name rule, input schema compile). A tool that
 * fails is left out with lint's own message; nothing is renamed or repaired.
 */
import type { JsonObject, JsonValue } from "../adapters/json-data.js";
import type { ReadToolSpec, ToolHint } from "../adapters/read-tool-specs.js";
import { pascalCase } from "../bundle/identifiers.js";
import { checkTools } from "../config/check-tools.js";
import { parseYaml } from "../config/parse-yaml.js";
import { validateAgainstSchema } from "../config/validate-schema.js";
import { ValidatorFactory } from "../validation/argument-validator.js";
import { sampleArguments } from "./sample-arguments.js";
import { toolsFileData, yamlText } from "./yaml-text.js";

/** A tool that will be written, with the arguments of its starter test when a valid sample was found. */
export interface AcceptedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  /** Arguments that pass the tool's input schema; absent when none could be built. */
  readonly sample?: JsonValue;
  /** Where the definition came from, for messages (`MCP server node`, `tools.json`). */
  readonly source: string;
  /** What the person importing should know (a placeholder description, an assumed schema, no test). */
  readonly notes: readonly string[];
  /** The source's own claims about the tool's effects (MCP annotations), for the person writing the policy. */
  readonly hints?: readonly ToolHint[];
}

/** A tool that was not written, and why (the messages lint would give for it). */
export interface RejectedTool {
  readonly name?: string;
  /** Position in its source's tool list. */
  readonly index: number;
  readonly source: string;
  readonly reasons: readonly string[];
}

/** One definition read from a source, labelled with that source. */
export interface SourcedSpec {
  readonly spec: ReadToolSpec;
  readonly source: string;
}

/** The placeholder written for a tool whose source gives no description. */
export function placeholderDescription(name: string): string {
  return `TODO: describe what ${name} does (its source gave no description)`;
}

/**
 * Checks each definition in order; the first definition of a name wins, later ones are rejected as duplicates.
 * @returns the tools to write and those left out, each with its reasons.
 */
export function acceptTools(specs: readonly SourcedSpec[]): {
  accepted: AcceptedTool[];
  rejected: RejectedTool[];
} {
  const factory = new ValidatorFactory();
  const accepted: AcceptedTool[] = [];
  const rejected: RejectedTool[] = [];
  const names = new Map<string, string>();
  const identifiers = new Map<string, string>();
  for (const { spec, source } of specs) {
    const notes = [...spec.notes];
    let description = spec.description;
    if (description === undefined) {
      description = placeholderDescription(spec.name);
      notes.push("its source gives no description: a placeholder was written, replace it");
    }
    const earlier = names.get(spec.name);
    if (earlier !== undefined) {
      rejected.push({
        name: spec.name,
        index: spec.index,
        source,
        reasons: [
          `a tool named "${spec.name}" was already imported from ${earlier}; tool names must be unique`,
        ],
      });
      continue;
    }
    const identifier = pascalCase(spec.name);
    const clash = identifiers.get(identifier);
    if (clash !== undefined) {
      rejected.push({
        name: spec.name,
        index: spec.index,
        source,
        reasons: [
          `tools "${clash}" and "${spec.name}" both become the TypeScript name ${identifier}Args; only "${clash}" was imported`,
        ],
      });
      continue;
    }
    const tool = { name: spec.name, description, inputSchema: spec.inputSchema };
    const text = yamlText(toolsFileData([tool]));
    const parsed = parseYaml(new TextEncoder().encode(text), source);
    if (!parsed.ok) {
      rejected.push({
        name: spec.name,
        index: spec.index,
        source,
        reasons: parsed.diagnostics.map((d) => d.message),
      });
      continue;
    }
    const shape = validateAgainstSchema(parsed.value, "tools");
    const checked = shape.ok ? checkTools([shape.value], factory) : undefined;
    const problems = [...shape.diagnostics, ...(checked?.diagnostics ?? [])].filter(
      (d) => d.severity === "error",
    );
    const validator = checked?.ok === true ? checked.value.validators.get(spec.name) : undefined;
    if (problems.length > 0 || validator === undefined) {
      rejected.push({
        name: spec.name,
        index: spec.index,
        source,
        reasons: problems.length > 0 ? problems.map(describeProblem) : ["its input schema was not accepted"],
      });
      continue;
    }
    names.set(spec.name, source);
    identifiers.set(identifier, spec.name);
    const sample = sampleArguments(spec.inputSchema);
    const valid = sample !== undefined && validator(sample).ok;
    if (!valid) {
      notes.push(
        "no arguments that pass its input_schema could be guessed, so its test is left commented out: fill in the arguments",
      );
    }
    accepted.push({
      ...tool,
      source,
      notes,
      ...(valid ? { sample } : {}),
      ...(spec.hints === undefined ? {} : { hints: spec.hints }),
    });
    factory.reset();
  }
  return { accepted, rejected };
}

/** Lint's message, with the place inside the tool when the message does not name it itself. */
function describeProblem(d: { message: string; path?: string }): string {
  // The check ran on a one-tool file: its paths start with the tool's position there, which means nothing here.
  const message = d.message.replaceAll('"tools/0/', '"');
  const inTool = d.path?.replace(/^\/tools\/0/, "").replace(/^\//, "");
  if (inTool === undefined || inTool === "" || inTool === "name" || message.includes(inTool)) return message;
  return `${message} (at ${inTool})`;
}
