/**
 * What one condition operator is, as one unit (as a zod check is one constructor): its name, the JSON types of
 * its value (the facts `schemas/policy.schema.json` states for it), the field types it reads, and its compile.
 * The runtime compiles conditions from these units, the loader checks operator types and values with them,
 * and a test compares them with the schema.
 */
import type { Truth } from "../truth.js";
import { FALSE } from "../truth.js";
import type { ConditionScope } from "./scope.js";

/** A JSON Schema type name. */
export type JsonType = "string" | "number" | "integer" | "boolean" | "array" | "object" | "null";

/** A compiled test of one value (the field's value, `undefined` when the field is missing). */
export type ValueTest = (value: unknown) => Truth;

/** A problem with an operator's value, at `at` below the operator's own node (a list index, an object key). */
export interface OperatorProblem {
  readonly at: readonly (string | number)[];
  readonly message: string;
}

/** What `compile` is given besides the operator's value. */
export interface CompileContext {
  /** The field path, as written (`[*]` marks an element of `any`/`all`). */
  readonly field: string;
  /** Reports a problem with the value; a condition with a problem does not compile. */
  readonly problem: (message: string, at?: readonly (string | number)[]) => void;
  /** Compiles a nested operator object (`any`, `all`, `not`) for `field`. */
  readonly nested: (field: string, spec: object) => ValueTest;
  /** Shared by the conditions of one policy (`command` matches all of a field's prefixes in one walk). */
  readonly scope: ConditionScope;
}

/** The declared types of the field an operator reads, for `checkValue`. */
export interface FieldFacts {
  readonly field: string;
  /** The field's JSON types, in words (`string or null`). */
  readonly described: string;
  /** True when a JSON value can be a value of the field. */
  readonly fits: (value: unknown) => boolean;
}

/** One condition operator. */
export interface Operator<V = unknown, N extends string = string> {
  /** Its key in an operator object. */
  readonly name: N;
  /** The schema's description of it (`$defs.operators.properties[name].description`), when it has one. */
  readonly description?: string;
  /** The JSON types its value may have, as the schema states them. */
  readonly valueTypes: readonly JsonType[];
  /** The value of a nested operator object: `$ref: "#/$defs/<valueRef>"` in the schema. */
  readonly valueRef?: "operators" | "url";
  /** The field types it reads, and how a mismatch names them; absent: a field of any type. */
  readonly reads?: { readonly types: readonly JsonType[]; readonly needs: string };
  /** Its work grows with the length of the string it reads (the loader warns when nothing bounds it). */
  readonly lengthBound?: boolean;
  /** Its nested operators apply to the array's elements (`items`) or to the field itself (`same`). */
  readonly nested?: "items" | "same";
  /** The diagnostic code of a value it refuses; absent: the problem is a `config-schema` error. */
  readonly invalidCode?: "invalid-regex" | "invalid-glob" | "invalid-command" | "invalid-url";
  /** It applies when its key is present, even with `undefined` (otherwise only for a defined value). */
  readonly ownKey?: boolean;
  /** Compiles its value into a test; reports what is wrong with the value through `context.problem`. */
  readonly compile: (value: V, context: CompileContext) => ValueTest;
  /** For an operator whose value is compared with the field's: the parts of the value that can never match. */
  readonly checkValue?: (value: V, field: FieldFacts) => readonly OperatorProblem[];
}

/**
 * An operator whose value is itself an operator object (`any`, `all`, `not`). Its type says so without naming
 * `OperatorSpec`, which is derived from the operators (a published declaration may not refer to itself).
 */
export type NestedOperator<N extends string, K extends "items" | "same"> = Operator<object, N> & {
  readonly nested: K;
};

/** Declares an operator, keeping its name and its value type. */
export function defineOperator<V, N extends string>(operator: Operator<V, N>): Operator<V, N> {
  return Object.freeze(operator);
}

/** Declares an operator whose value is an operator object. */
export function defineNestedOperator<N extends string, K extends "items" | "same">(
  operator: Operator<object, N> & { readonly nested: K },
): NestedOperator<N, K> {
  Object.freeze(operator);
  return operator;
}

/** Every operator but `exists` and `not` needs a value: a missing field certainly does not match it. */
export function present(test: ValueTest): ValueTest {
  return (value) => (value === undefined ? FALSE : test(value));
}

/** The JSON type of a value, as the loader names it (`integer` for a whole number). */
export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}
