/**
 * The decision procedure of `ToolPolicy` (policy.ts) and `applyMode` (mode.ts) over masks of possible truths: which
 * statements of a tool may match (an allow statement only when its conditions are certainly true, a deny or ask
 * statement when they may be), the strictest of them, the tool's strictest `otherwise` fallback or default deny
 * when none matches, and what the configured mode makes of that.
 *
 * A tool whose statements read a field with `command` has its compound commands (`a && b`) decided part by part
 * when the whole string falls back (or, unless `command` is the only operator on those fields, gets an ask): the
 * strictest of the parts' decisions then stands. The parts are not modelled: where that may happen, every action
 * a statement or the fallback of the tool can give is possible (the search then finds candidates, which the
 * controller confirms or not, and never a `holds` that the parts could break). Only a value holding `;`, `&`, `|` or a
 * newline can be two simple commands (safe-subset.ts joins them with nothing else), so a value without any of them
 * is decided as it is: an atom of the tool (a `regex` of those characters on each such field) tells the two apart.
 */
import { commandFields } from "../runtime/compound-command.js";
import { splitFieldPath } from "../runtime/condition.js";
import type { ControllerMode } from "../runtime/mode.js";
import type { StatementSpec } from "../runtime/policy.js";
import { ACTION_RANK } from "../runtime/statements.js";
import type { PolicyAction } from "../runtime/types.js";
import { type AtomTable, atomsOf, evaluate, F, type Formula, T, U } from "./formula.js";

/**
 * The characters that join simple commands in the safe subset (`;`, `&&`, `||`, `|`, a newline): a value without
 * them is one simple command at most, never split into parts.
 */
export const COMMAND_SEPARATORS = "[;&|\\n]";

/** Bits of actions in a mask of possible decisions. */
export const ALLOW = 1;
export const ASK = 2;
export const DENY = 4;
/** A call the tool's schemas refuse (only in `diff`, where a side may refuse what the other decides). */
export const INVALID = 8;

export const ACTION_BIT: Readonly<Record<PolicyAction, number>> = { allow: ALLOW, ask: ASK, deny: DENY };
const ACTIONS_BY_RANK: readonly PolicyAction[] = ["allow", "ask", "deny"];

/** The actions of a mask, for messages. */
export function actionsOf(mask: number): (PolicyAction | "invalid")[] {
  const out: (PolicyAction | "invalid")[] = [];
  if (mask & ALLOW) out.push("allow");
  if (mask & ASK) out.push("ask");
  if (mask & DENY) out.push("deny");
  if (mask & INVALID) out.push("invalid");
  return out;
}

interface ModelStatement {
  readonly id: string;
  readonly rank: number;
  readonly when: Formula;
  readonly context: Formula;
  /**
   * Whether the statement matches some part of a compound command wherever it matches the whole: it reads each
   * command field with one `command` operator alone (one that may match a compound command may match one of its
   * parts, compound-parts.test.ts), and its other conditions read what the parts keep as it is.
   */
  readonly partMonotone: boolean;
}

/** One tool's statements of one policy, as formulas. */
export class ToolDecision {
  readonly #statements: readonly ModelStatement[];
  /** The strictest `otherwise` action, or deny (default deny). */
  readonly #fallback: PolicyAction;
  readonly #mode: ControllerMode;
  /** When compound commands may be decided part by part: whether `command` is the only operator on their fields. */
  readonly #compound: { readonly onlyCommand: boolean } | undefined;
  readonly #commandPaths: readonly (readonly string[])[];
  /** Every action a statement of the tool or its fallback gives: what the parts of a compound command may get. */
  readonly #anyAction: number;
  /** True where some command field's value holds a separator (so it may be split into parts), as a formula. */
  readonly #mayBeCompound: Formula | undefined;

  constructor(table: AtomTable, tool: string, statements: readonly StatementSpec[], mode: ControllerMode) {
    const mine = statements.filter((s) => s.tools.includes(tool));
    const fields = commandFields(mine.map((s) => s.when));
    const isCommandField = (name: string): boolean => {
      const path = splitFieldPath(name);
      return (fields?.paths ?? []).some(
        (p) => p.length === path.length && p.every((seg, i) => seg === path[i]),
      );
    };
    this.#statements = mine
      .filter((s) => s.kind !== "otherwise")
      .map((s) => ({
        id: s.id,
        rank: ACTION_RANK[s.action],
        when: table.condition(s.when, "arguments"),
        context: table.condition(s.context, "context"),
        partMonotone: Object.entries(s.when ?? {}).every(
          ([name, spec]) =>
            !isCommandField(name) ||
            (spec !== null &&
              typeof spec === "object" &&
              !Array.isArray(spec) &&
              Object.keys(spec).length === 1 &&
              "command" in spec),
        ),
      }));
    const fallbacks = mine.filter((s) => s.kind === "otherwise");
    this.#fallback =
      fallbacks.length === 0
        ? "deny"
        : (ACTIONS_BY_RANK[Math.max(...fallbacks.map((s) => ACTION_RANK[s.action]))] as PolicyAction);
    this.#mode = mode;
    // A fallback has no conditions, so it reads no command.
    this.#compound = fields === undefined ? undefined : { onlyCommand: fields.onlyCommand };
    this.#commandPaths = fields?.paths ?? [];
    if (fields !== undefined) {
      // The field names as the statements spell them (one atom per field name, as the runtime reads each).
      const names = new Set<string>();
      for (const s of mine) {
        for (const name of Object.keys(s.when ?? {})) {
          const path = splitFieldPath(name);
          if (fields.paths.some((p) => p.length === path.length && p.every((seg, i) => seg === path[i])))
            names.add(name);
        }
      }
      const each = [...names].map((name) =>
        table.condition({ [name]: { regex: COMMAND_SEPARATORS } }, "arguments"),
      );
      // Some field holds a separator: not (every field holds none).
      this.#mayBeCompound =
        each.length === 0
          ? undefined
          : { kind: "not", of: { kind: "and", of: each.map((f): Formula => ({ kind: "not", of: f })) } };
    } else this.#mayBeCompound = undefined;
    let any = ACTION_BIT[this.#fallback];
    for (const s of mine) any |= ACTION_BIT[s.action];
    this.#anyAction = any;
  }

  /** Per atom the decision reads: the highest rank of the statements that read it (deny 2, ask 1, allow 0). */
  atomRanks(): Map<number, number> {
    const out = new Map<number, number>();
    // The separators' atoms: read by the decision, after every statement's.
    if (this.#mayBeCompound !== undefined) for (const atom of atomsOf(this.#mayBeCompound)) out.set(atom, 0);
    for (const s of this.#statements) {
      for (const f of [s.when, s.context]) {
        for (const atom of atomsOf(f)) out.set(atom, Math.max(out.get(atom) ?? -1, s.rank));
      }
    }
    return out;
  }

  /**
   * The atoms the search should decide first: whether a command field holds a separator. Every action of the tool is
   * possible where it does (the parts are not modelled), so the plain simple commands, where the statements alone
   * decide, are searched before those.
   */
  get firstAtoms(): readonly number[] {
    return this.#mayBeCompound === undefined ? [] : [...atomsOf(this.#mayBeCompound)];
  }

  /** The fields the tool's statements read with `command` (where compound commands are split), or none. */
  get commandFieldPaths(): readonly (readonly string[])[] {
    return this.#commandPaths;
  }

  /**
   * The actions the controller may take (after the mode) when atoms may have the truths of `masks`.
   * @param splitParts - whether a compound command's parts may decide (every action of the tool is then possible);
   *   `false` decides the whole string as it is, for a property whose every violation by a compound command is
   *   also one by a part of it (see `Verifier`).
   */
  decide(masks: Uint8Array, splitParts = true): number {
    const { policy, mayFallBack } = this.#rules(masks);
    let out = policy;
    if (mayFallBack) out |= ACTION_BIT[this.#fallback];
    if (splitParts && this.#maySplit(masks, policy, mayFallBack)) out |= this.#anyAction;
    return applyModeMask(out, this.#mode);
  }

  /**
   * The whole string's decision apart from its parts, for `diff`: `stands`, the actions (after the mode) a
   * statement may give the whole string without its parts being read, and `maySplit`, whether its parts may be read
   * instead (the whole may fall back, or get an ask where `command` is not the only operator on the field).
   */
  decideWhole(masks: Uint8Array): {
    readonly stands: number;
    readonly maySplit: boolean;
    /**
     * The least action (after the mode) the parts may give when they decide: ask when they decide only because an
     * ask statement matched the whole (no fallback) and each ask statement that may match carries to a part
     * (`partMonotone`): that part then gets ask at least. Allow otherwise.
     */
    readonly splitFloor: number;
    /**
     * The standing actions (ask, deny; in the enforce mode only) every statement that may give them here carries to
     * a part (`partMonotone`), and no fallback gives: where the whole gets one, some part gets it too, as a string
     * decided whole.
     */
    readonly carried: number;
  } {
    const { policy, mayFallBack } = this.#rules(masks);
    const maySplit = this.#maySplit(masks, policy, mayFallBack);
    // Without a compound field or a separator, every decision stands, the fallback too.
    if (!maySplit)
      return {
        stands: this.decide(masks, false),
        maySplit,
        splitFloor: ALLOW,
        carried: this.#carried(masks, mayFallBack),
      };
    const stands = this.#compound?.onlyCommand === true ? policy : policy & ~ASK;
    const askCarries =
      !mayFallBack &&
      this.#statements.every(
        (s) => s.rank !== ACTION_RANK.ask || s.partMonotone || !this.#mayMatch(s, masks),
      );
    const splitFloor = askCarries ? lowest(applyModeMask(ASK, this.#mode)) : ALLOW;
    // A split whole stands by its statements alone: its fallback is read as the parts.
    return {
      stands: applyModeMask(stands, this.#mode),
      maySplit,
      splitFloor,
      carried: this.#carried(masks, false),
    };
  }

  /** See `decideWhole`'s `carried`; `mayFallBack` when the fallback may stand too. */
  #carried(masks: Uint8Array, mayFallBack: boolean): number {
    if (this.#mode !== "enforce") return 0;
    let out = 0;
    for (const action of ["ask", "deny"] as const) {
      if (mayFallBack && this.#fallback === action) continue;
      const rank = ACTION_RANK[action];
      if (this.#statements.every((s) => s.rank !== rank || s.partMonotone || !this.#mayMatch(s, masks)))
        out |= ACTION_BIT[action];
    }
    return out;
  }

  /** Whether a statement may match where atoms may have these truths (see {@link matchable}). */
  #mayMatch(s: ModelStatement, masks: Uint8Array): boolean {
    return matchable(s.rank, evaluate(s.when, masks), evaluate(s.context, masks));
  }

  #maySplit(masks: Uint8Array, policy: number, mayFallBack: boolean): boolean {
    return (
      this.#compound !== undefined &&
      (this.#mayBeCompound === undefined || (evaluate(this.#mayBeCompound, masks) & (T | U)) !== 0) &&
      (mayFallBack || (!this.#compound.onlyCommand && (policy & ASK) !== 0))
    );
  }

  /** The actions the statements may give (strictest first), and whether none must match (the fallback may). */
  #rules(masks: Uint8Array): { policy: number; mayFallBack: boolean } {
    // Bits of ranks (1 << rank): some statement may match (yes), some statement must match (must).
    let yes = 0;
    let must = 0;
    for (const s of this.#statements) {
      const w = evaluate(s.when, masks);
      const c = evaluate(s.context, masks);
      // #matches: false if either is false; true if both true; maybe otherwise.
      const canFalse = (w & F) !== 0 || (c & F) !== 0;
      const canMaybe = (w & (T | U)) !== 0 && (c & (T | U)) !== 0 && ((w & U) !== 0 || (c & U) !== 0);
      const may = matchable(s.rank, w, c);
      const unmatchable = s.rank === 0 ? canFalse || canMaybe : canFalse;
      if (may) yes |= 1 << s.rank;
      if (may && !unmatchable) must |= 1 << s.rank;
    }
    let policy = 0;
    for (let rank = 2; rank >= 0; rank--) {
      if (yes & (1 << rank)) policy |= ACTION_BIT[ACTIONS_BY_RANK[rank] as PolicyAction];
      if (must & (1 << rank)) break;
    }
    return { policy, mayFallBack: must === 0 };
  }
}

/**
 * Whether a statement of this rank may match where its `when` and `context` may have these truths: an allow only when
 * both may be true, a deny or ask also where either may be a maybe.
 */
function matchable(rank: number, when: number, context: number): boolean {
  return rank === 0
    ? (when & T) !== 0 && (context & T) !== 0
    : (when & (T | U)) !== 0 && (context & (T | U)) !== 0;
}

/** The least strict action of a non-empty mask. */
function lowest(mask: number): number {
  return mask & ALLOW ? ALLOW : mask & ASK ? ASK : DENY;
}

/** `applyMode` on a mask of policy actions. */
export function applyModeMask(policy: number, mode: ControllerMode): number {
  if (mode === "observe") return policy === 0 ? 0 : ALLOW;
  if (mode === "ci") return (policy & ~ASK) | (policy & ASK ? DENY : 0);
  return policy;
}
