/**
 * The condition operators, one module each. The order is the order in which a field's operators are compiled
 * (and so the order of their problems); it does not change a decision, since all of them must hold. The
 * operator names and the `OperatorSpec` type are derived from this table, and the loader's type and value
 * checks read it. To add an operator: write its module, list it here (its import and one entry: the names
 * and `OperatorSpec` follow), and add it to `schemas/policy.schema.json` and docs/policy-reference.md
 * section 12 (a test compares the table with both, so a module left out of it fails there). The entry stays:
 * the compiled module and `toolgate/runtime` load no file by name at run time, so the operators they hold are
 * the ones some module imports.
 */
import { allOperator } from "./all.js";
import { anyOperator } from "./any.js";
import { commandOperator } from "./command.js";
import { equalsOperator } from "./equals.js";
import { existsOperator } from "./exists.js";
import { globOperator } from "./glob.js";
import { inOperator } from "./in.js";
import { maxOperator } from "./max.js";
import { minOperator } from "./min.js";
import { notOperator } from "./not.js";
import type { Operator } from "./operator.js";
import { pathPrefixOperator } from "./path-prefix.js";
import { prefixOperator } from "./prefix.js";
import { regexOperator } from "./regex.js";
import { urlOperator } from "./url.js";

/** Every operator, in compile order. */
export const OPERATORS = Object.freeze([
  existsOperator,
  equalsOperator,
  inOperator,
  prefixOperator,
  pathPrefixOperator,
  globOperator,
  regexOperator,
  minOperator,
  maxOperator,
  commandOperator,
  urlOperator,
  anyOperator,
  allOperator,
  notOperator,
] as const);

type AnyOperator = (typeof OPERATORS)[number];

/** One operator name. */
export type OperatorName = AnyOperator["name"];

/** The operators of one field, as written in YAML. Several operators on one field must all hold. */
export type OperatorSpec = {
  readonly [O in AnyOperator as O["name"]]?: O extends { readonly nested: "items" | "same" }
    ? OperatorSpec
    : O extends Operator<infer V, string>
      ? V
      : never;
};

/** The names of every operator. */
export const OPERATOR_NAMES: readonly OperatorName[] = Object.freeze(OPERATORS.map((o) => o.name));
