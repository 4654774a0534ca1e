/**
 * The policy: statements (set entries and argument rules) and the decision procedure of DESIGN.md
 * section 4 — the strictest matching statement wins (deny > ask > allow), nothing matching means the
 * tool's fallback (`otherwise`) or else deny, and matching is conservative (an allow rule needs a certain
 * match, deny and ask rules a possible one). Statements are built in statements.ts and compiled and indexed
 * per tool in compiled-statements.ts; this file holds `ToolPolicy`, which decides and explains with them.
 */

import {
  type Best,
  buildPatternFields,
  type CompiledStatement,
  compileStatement,
  consider,
  indexStatements,
  matchPatterns,
  type Scalar,
  type ToolStatements,
} from "./compiled-statements.js";
import {
  type CommandFields,
  type CompoundSplit,
  commandFields,
  splitCompound,
  withField,
} from "./compound-command.js";
import { ConditionScope, type ConditionSpec, TRUE, type Truth, UNKNOWN } from "./condition.js";
import { PolicyDefinitionError } from "./errors.js";
import {
  ACTION_RANK,
  ALLOW_RANK,
  otherwiseStatement,
  type PolicyRule,
  ruleStatement,
  type StatementKind,
  type StatementSpec,
  setStatement,
} from "./statements.js";
import type { DecidingStatement, PolicyAction, PolicyDecision, ToolCall, ToolContext } from "./types.js";

export {
  otherwiseStatement,
  type PolicyRule,
  ruleStatement,
  type StatementKind,
  type StatementSpec,
} from "./statements.js";

/** Input of `new ToolPolicy(...)`: the seed's sets plus optional rules. */
export interface ToolPolicyOptions {
  readonly allowedTools?: Iterable<string>;
  readonly confirmationRequiredTools?: Iterable<string>;
  readonly deniedTools?: Iterable<string>;
  /** A reason per tool for its set entry; a default reason is used otherwise. */
  readonly reasons?: ReadonlyMap<string, string> | { readonly [tool: string]: string };
  readonly rules?: readonly PolicyRule[];
  /** Per tool: the decision for a call that no statement matched (instead of default deny). */
  readonly otherwise?: ReadonlyMap<string, PolicyAction> | { readonly [tool: string]: PolicyAction };
  /** Statements as a bundle holds them (layers may name one tool more than once). */
  readonly statements?: readonly StatementSpec[];
  readonly fingerprint?: string;
}

/** How one statement fared for one call (what `explain` prints). */
export interface StatementEvaluation {
  readonly statement: DecidingStatement & { readonly kind: StatementKind };
  /** For an `otherwise` statement: true when it decided the call (no other statement matched). */
  readonly matched: boolean;
  /** `certain` or `possible` for a match; `no` otherwise. */
  readonly match: "certain" | "possible" | "no";
}

/** A decision with every statement that was considered. */
export interface ExplainedDecision {
  readonly decision: PolicyDecision;
  /** Every statement on the tool, evaluated against the call's arguments as given. */
  readonly evaluations: readonly StatementEvaluation[];
  /**
   * For a compound command decided part by part (compound-command.ts): each simple command with its own decision
   * and evaluations. `decision` is then the strictest of theirs and of a deny or ask the whole string gets.
   */
  readonly parts?: readonly ExplainedPart[];
}

/** One simple command of a compound command, decided on its own. */
export interface ExplainedPart {
  /** The field that holds the command, as written in rules (`command`, `a.b`). */
  readonly field: string;
  /** The simple command, written back as a string of the safe subset. */
  readonly command: string;
  readonly decision: PolicyDecision;
  readonly evaluations: readonly StatementEvaluation[];
}

const RANK = ACTION_RANK;

/** A decision no statement made: the tool's `otherwise`, or the default deny. */
function fellBack(decision: PolicyDecision): boolean {
  return (
    decision.statements.length === 0 ||
    decision.statements.every((s) => (s as { kind?: string }).kind === "otherwise")
  );
}

function reasonMap(reasons: ToolPolicyOptions["reasons"]): ReadonlyMap<string, string> {
  if (reasons === undefined) return new Map();
  if (reasons instanceof Map) return reasons;
  return new Map(Object.entries(reasons as Record<string, string>));
}

/** Builds the statement list of the seed's sets and rules; a tool in two sets throws. */
function statementsFromOptions(options: ToolPolicyOptions): StatementSpec[] {
  const reasons = reasonMap(options.reasons);
  const sets: [PolicyAction, Iterable<string> | undefined][] = [
    ["allow", options.allowedTools],
    ["ask", options.confirmationRequiredTools],
    ["deny", options.deniedTools],
  ];
  const seen = new Map<string, PolicyAction>();
  const statements: StatementSpec[] = [];
  for (const [action, tools] of sets) {
    for (const tool of tools ?? []) {
      const earlier = seen.get(tool);
      if (earlier !== undefined) {
        throw new PolicyDefinitionError(
          earlier === action
            ? `tool "${tool}" is listed twice in ${action}; list it once`
            : `tool "${tool}" is in both ${earlier} and ${action}; keep it in one`,
        );
      }
      seen.set(tool, action);
      const reason = reasons.get(tool);
      statements.push(setStatement(tool, action, reason === undefined ? {} : { reason }));
    }
  }
  for (const rule of options.rules ?? []) statements.push(ruleStatement(rule));
  const otherwise = options.otherwise;
  if (otherwise !== undefined) {
    const entries = otherwise instanceof Map ? [...otherwise] : Object.entries(otherwise);
    for (const [tool, action] of entries) statements.push(otherwiseStatement(tool, action));
  }
  return statements;
}

/**
 * Decides allow, ask or deny for tool calls. Immutable; `decide` is pure and deterministic.
 */
export class ToolPolicy {
  readonly #byTool: ReadonlyMap<string, ToolStatements>;
  /** Per tool: its strictest `otherwise` statements (several layers may give one), in statement order. */
  readonly #fallbacks: ReadonlyMap<string, readonly CompiledStatement[]>;
  /** Per tool: every `otherwise` statement, for `explain`. */
  readonly #allFallbacks: ReadonlyMap<string, readonly CompiledStatement[]>;
  /** Fingerprint of the bundle this policy came from, or `"unbundled"`. */
  readonly fingerprint: string;
  /** What the statements' conditions share: command prefix sets, and the last path and command read. */
  readonly #scope: ConditionScope;
  /** Per tool: the fields its statements read with `command`, where a compound command is split. */
  readonly #commandFields: ReadonlyMap<string, CommandFields>;

  /**
   * @throws PolicyDefinitionError when a tool is in two sets, or a rule is malformed.
   */
  constructor(options: ToolPolicyOptions = {}) {
    const lists = new Map<string, CompiledStatement[]>();
    const fallbacks = new Map<string, CompiledStatement[]>();
    const conditions = new Map<string, (ConditionSpec | undefined)[]>();
    let order = 0;
    // The statements' `command` prefixes are matched together, per field, and their memos are this policy's.
    const scope = new ConditionScope();
    this.#scope = scope;
    for (const spec of [...statementsFromOptions(options), ...(options.statements ?? [])]) {
      if (spec.kind === "otherwise" && (spec.when !== undefined || spec.context !== undefined)) {
        throw new PolicyDefinitionError(`otherwise statement "${spec.id}" cannot have conditions`);
      }
      const compiled = compileStatement(spec, order++, scope);
      const target = spec.kind === "otherwise" ? fallbacks : lists;
      for (const tool of spec.tools) {
        if (spec.kind !== "otherwise") {
          const list = conditions.get(tool);
          if (list === undefined) conditions.set(tool, [spec.when]);
          else list.push(spec.when);
        }
        const list = target.get(tool);
        if (list === undefined) target.set(tool, [compiled]);
        else list.push(compiled);
      }
    }
    this.#byTool = new Map([...lists].map(([tool, all]) => [tool, indexStatements(all)]));
    this.#allFallbacks = fallbacks;
    // Across layers the strictest fallback wins, as statements do.
    this.#fallbacks = new Map(
      [...fallbacks].map(([tool, all]) => {
        const rank = Math.max(...all.map((s) => s.rank));
        return [tool, all.filter((s) => s.rank === rank)];
      }),
    );
    this.fingerprint = options.fingerprint ?? "unbundled";
    const fields = new Map<string, CommandFields>();
    for (const [tool, list] of conditions) {
      const found = commandFields(list);
      if (found !== undefined) fields.set(tool, found);
    }
    this.#commandFields = fields;
  }

  /**
   * Builds a policy from a statement list, as a bundle holds it: several layers may name one tool, and the
   * strictest statement wins.
   * @throws PolicyDefinitionError when a statement is malformed.
   */
  static fromStatements(statements: readonly StatementSpec[], fingerprint = "unbundled"): ToolPolicy {
    return new ToolPolicy({ statements, fingerprint });
  }

  /** Every tool name that some statement mentions. */
  get toolNames(): readonly string[] {
    return [...new Set([...this.#byTool.keys(), ...this.#fallbacks.keys()])];
  }

  /**
   * Decides a call. Arguments should already be validated against the tool's schema (the controller does
   * that first). Never throws for any call.
   */
  decide(call: ToolCall, context: ToolContext = {}): PolicyDecision {
    return this.#evaluate(call, context);
  }

  /** Decides a call and reports how every statement on its tool fared. */
  explain(call: ToolCall, context: ToolContext = {}): ExplainedDecision {
    const evaluations: StatementEvaluation[] = [];
    const whole = this.#evaluateOne(call, context, evaluations);
    const split = this.#partsToRead(call, whole);
    if (split === undefined) return { decision: whole, evaluations };
    const parts: ExplainedPart[] = [];
    const decision = this.#evaluateParts(call, context, split, parts);
    return { decision, evaluations, parts };
  }

  /**
   * True when every call of the tool is denied whatever its arguments (a deny set entry or an
   * unconditional deny rule, or only deny statements and no fallback other than deny, or no statement at
   * all). Such tools are not shown to the model.
   */
  isDeniedOutright(toolName: string): boolean {
    const statements = this.#byTool.get(toolName)?.all ?? [];
    if (statements.some((s) => s.action === "deny" && s.when === null && s.context === null)) return true;
    // Only deny statements and a deny fallback (or none): nothing can allow or ask.
    const fallback = this.#fallbacks.get(toolName)?.[0];
    return (
      statements.every((s) => s.action === "deny") && (fallback === undefined || fallback.action === "deny")
    );
  }

  #evaluate(call: ToolCall, context: ToolContext): PolicyDecision {
    const whole = this.#evaluateOne(call, context, null);
    const split = this.#partsToRead(call, whole);
    return split === undefined ? whole : this.#evaluateParts(call, context, split, null);
  }

  /**
   * The simple commands of a compound command to decide part by part (compound-command.ts), given the whole
   * string's decision. A statement's allow or deny of the whole string stands; so does its ask when the tool
   * applies only `command` to the field (its parts would be decided alike). The parts decide when the whole
   * falls back to `otherwise` or the default deny, or gets an ask from another operator on the field (such as
   * `not: { regex: "^npm test$" }`, which reads the whole string where the parts are what runs).
   */
  #partsToRead(call: ToolCall, whole: PolicyDecision): CompoundSplit | undefined {
    const fields = this.#commandFields.get(call.toolName);
    if (fields === undefined) return undefined;
    if ((whole.action !== "ask" || fields.onlyCommand) && !fellBack(whole)) return undefined;
    return splitCompound(call.arguments, fields.paths);
  }

  /** A compound command, part by part: each simple command decided by the whole policy; the strictest wins. */
  #evaluateParts(
    call: ToolCall,
    context: ToolContext,
    split: CompoundSplit,
    explained: ExplainedPart[] | null,
  ): PolicyDecision {
    const decisions: PolicyDecision[] = [];
    for (const part of split.parts) {
      const partEvaluations: StatementEvaluation[] | null = explained === null ? null : [];
      const sub: ToolCall = { ...call, arguments: withField(call.arguments, split.path, part) };
      const decision = this.#evaluateOne(sub, context, partEvaluations);
      decisions.push(decision);
      explained?.push({
        field: split.path.join("."),
        command: part,
        decision,
        evaluations: partEvaluations ?? [],
      });
    }
    return this.#strictestOf(decisions);
  }

  /** The strictest of several decisions; several of one strictness are joined (statements once each). */
  #strictestOf(decisions: readonly PolicyDecision[]): PolicyDecision {
    let rank = -1;
    for (const d of decisions) rank = Math.max(rank, RANK[d.action]);
    const top = decisions.filter((d) => RANK[d.action] === rank);
    const first = top[0] as PolicyDecision;
    if (top.every((d) => d === first)) return first;
    const statements = new Map<string, PolicyDecision["statements"][number]>();
    for (const d of top) for (const s of d.statements) if (!statements.has(s.id)) statements.set(s.id, s);
    if (statements.size === 0) return first;
    const list = [...statements.values()];
    return {
      action: first.action,
      reason: [...new Set(list.map((s) => s.reason))].join("; "),
      ruleIds: list.map((s) => s.id),
      statements: list,
      fingerprint: this.fingerprint,
    };
  }

  #evaluateOne(
    call: ToolCall,
    context: ToolContext,
    evaluations: StatementEvaluation[] | null,
  ): PolicyDecision {
    const statements = this.#byTool.get(call.toolName);
    // A tool has a statement list only when some statement names it.
    if (statements === undefined) return this.#unmatched(call.toolName, evaluations);
    // The hot path allocates nothing when one statement decides: its decision is built once, frozen.
    const best: Best = { rank: -1, first: undefined, more: undefined };
    if (evaluations !== null) {
      // explain: every statement in order, with how it fared.
      for (const statement of statements.all) {
        const truth = this.#matches(statement, call.arguments, context);
        const matched = truth === TRUE || (truth === UNKNOWN && statement.rank !== ALLOW_RANK);
        evaluations.push({
          statement: statement.public,
          matched,
          match: !matched ? "no" : truth === TRUE ? "certain" : "possible",
        });
        if (matched) consider(best, statement);
      }
    } else {
      const args = call.arguments;
      // `equals` on a scalar is exact: only the statements indexed under the argument's value can match, and
      // they certainly do (the same answer evaluating each would give).
      const index = statements.index;
      if (args !== null && typeof args === "object" && !Array.isArray(args)) {
        for (let i = 0; i < index.length; i++) {
          const { field, byValue } = index[i] as ToolStatements["index"][number];
          if (!Object.hasOwn(args, field)) continue;
          // The index holds scalars only: an object value finds nothing.
          const hits = byValue.get((args as Record<string, unknown>)[field] as Scalar);
          if (hits !== undefined) for (const statement of hits) consider(best, statement);
        }
      }
      statements.patterns ??= buildPatternFields(statements.patterned, this.#scope);
      for (const field of statements.patterns)
        if (field.maxRank >= best.rank) matchPatterns(field, args, best);
      // Strictest first: once a statement has matched, one of a milder action cannot change the decision.
      for (const statement of statements.scanned) {
        if (statement.rank < best.rank) break;
        const truth = this.#matches(statement, args, context);
        // Conservative matching: an allow statement needs certainty; deny and ask take a maybe.
        if (truth === TRUE || (truth === UNKNOWN && statement.rank !== ALLOW_RANK)) consider(best, statement);
      }
    }
    const first = best.first;
    if (first === undefined) return this.#unmatched(call.toolName, evaluations);
    this.#recordFallbacks(call.toolName, evaluations, false);
    if (best.more === undefined) return this.#decisionOf(first);
    return this.#combined([first, ...best.more]);
  }

  /** The decision of several statements of one strictness: their reasons joined, their ids in order. */
  #combined(statements: readonly CompiledStatement[]): PolicyDecision {
    const first = statements[0] as CompiledStatement;
    const deciding = [...statements].sort((x, y) => x.order - y.order);
    const reasons = [...new Set(deciding.map((s) => s.public.reason))];
    return {
      action: first.action,
      reason: reasons.join("; "),
      ruleIds: deciding.map((s) => s.public.id),
      statements: deciding.map((s) => s.public),
      fingerprint: this.fingerprint,
    };
  }

  /** No statement matched: the tool's fallback decides, or else default deny. */
  #unmatched(toolName: string, evaluations: StatementEvaluation[] | null): PolicyDecision {
    const fallback = this.#fallbacks.get(toolName);
    this.#recordFallbacks(toolName, evaluations, true);
    if (fallback === undefined) return this.#defaultDeny(toolName);
    return fallback.length === 1
      ? this.#decisionOf(fallback[0] as CompiledStatement)
      : this.#combined(fallback);
  }

  /** For `explain`: each `otherwise` statement of the tool, and whether it decided the call. */
  #recordFallbacks(toolName: string, evaluations: StatementEvaluation[] | null, applied: boolean): void {
    if (evaluations === null) return;
    const all = this.#allFallbacks.get(toolName);
    if (all === undefined) return;
    // A tool with `otherwise` statements has strictest ones.
    const deciding = this.#fallbacks.get(toolName) as readonly CompiledStatement[];
    for (const statement of all) {
      const matched = applied && deciding.includes(statement);
      evaluations.push({ statement: statement.public, matched, match: matched ? "certain" : "no" });
    }
  }

  #decisionOf(statement: CompiledStatement): PolicyDecision {
    let decision = statement.single;
    if (decision === undefined) {
      decision = Object.freeze({
        action: statement.action,
        reason: statement.public.reason,
        ruleIds: Object.freeze([statement.public.id]),
        statements: Object.freeze([statement.public]),
        fingerprint: this.fingerprint,
      });
      statement.single = decision;
    }
    return decision;
  }

  #matches(statement: CompiledStatement, args: unknown, context: ToolContext): Truth {
    const a = statement.when === null ? TRUE : statement.when(args);
    if (a === 0) return 0;
    const c = statement.context === null ? TRUE : statement.context(context);
    if (c === 0) return 0;
    return a === UNKNOWN || c === UNKNOWN ? UNKNOWN : TRUE;
  }

  #defaultDeny(toolName: string): PolicyDecision {
    return {
      action: "deny",
      reason: `no policy statement allows tool ${toolName} (default deny)`,
      ruleIds: [],
      statements: [],
      fingerprint: this.fingerprint,
    };
  }
}
