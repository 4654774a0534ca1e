/**
 * How a statement's conditions fared for one call, operator by operator (what `toolgate explain --trace`
 * prints). Each operator is compiled and run alone through `compileCondition`, the code that decides calls,
 * so the trace cannot disagree with the decision; for `command`, the shell matcher's own introspection says
 * which simple command met which prefix.
 */
import {
  type CompiledCondition,
  type ConditionSpec,
  compileCondition,
  type OperatorSpec,
  readField,
  splitFieldPath,
  TRUE,
  type Truth,
  UNKNOWN,
} from "./condition.js";
import { type CommandTrace, parseCommandPrefixSpec, traceCommand } from "./match/shell.js";

/** A three-valued result in words. */
export type TraceResult = "true" | "false" | "maybe";

/** One operator of one field, and what it gave. */
export interface OperatorTrace {
  readonly field: string;
  readonly operator: string;
  /** The operator's value as written in the policy. */
  readonly value: unknown;
  readonly result: TraceResult;
  /** For `command` on a string: the matcher's steps. */
  readonly command?: CommandTrace;
}

function words(truth: Truth): TraceResult {
  return truth === TRUE ? "true" : truth === UNKNOWN ? "maybe" : "false";
}

/**
 * Every operator of a condition, each evaluated alone against the subject (the call's arguments or
 * context). The condition holds when every result is `true`; one `false` makes it fail; otherwise it is a
 * maybe.
 */
export function traceCondition(spec: ConditionSpec, subject: unknown): OperatorTrace[] {
  const traces: OperatorTrace[] = [];
  for (const [field, operators] of Object.entries(spec)) {
    for (const [operator, value] of Object.entries(operators as OperatorSpec)) {
      const compiled = compileCondition({ [field]: { [operator]: value } as OperatorSpec });
      // The bundle's conditions compiled when it was loaded: each part compiles alone as well.
      const test: CompiledCondition | undefined = compiled.ok ? compiled.condition : undefined;
      const result: TraceResult = test === undefined ? "maybe" : words(test(subject));
      let command: CommandTrace | undefined;
      if (operator === "command" && Array.isArray(value)) {
        const actual = readField(subject, splitFieldPath(field));
        if (typeof actual === "string") {
          const prefixes = value.flatMap((entry) => {
            const read = parseCommandPrefixSpec(entry);
            return read.ok ? [read.prefix] : [];
          });
          command = traceCommand(actual, prefixes);
        }
      }
      traces.push({ field, operator, value, result, ...(command === undefined ? {} : { command }) });
    }
  }
  return traces;
}
