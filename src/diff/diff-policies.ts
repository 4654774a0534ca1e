/**
 * `diffPolicies`: what a policy change does. The statements of two bundles are compared, and both policies
 * decide the same calls — the policy tests of both sides, calls recorded in an audit log, and witnesses
 * generated from the changed statements — through the controller's own validation and decision code. Every
 * call whose action differs is reported, as loosened (deny→ask, deny→allow, ask→allow) or tightened, with
 * the deciding statements on both sides. Nothing is guessed: a reported change is one that really flips.
 */
import { bundlePolicy } from "../bundle/bundle-parts.js";
import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { canonicalJson } from "../runtime/canonical-json.js";
import { applyMode, type ControllerMode, DEFAULT_MODE } from "../runtime/mode.js";
import type { StatementSpec, ToolPolicy } from "../runtime/policy.js";
import { ACTION_RANK } from "../runtime/statements.js";
import type { ArgumentValidator, PolicyAction, StatementSource, ToolContext } from "../runtime/types.js";
import { sharedValidatorFactory } from "../validation/argument-validator.js";
import { diffRegions, type ToolRegions } from "../verify/diff-regions.js";
import type { RecordedCall } from "./recorded-calls.js";
import { compareAliases, compareSettings, type SettingChange } from "./setting-changes.js";
import { compareStatements, type StatementChanges, type StatementPair } from "./statement-changes.js";
import { generateWitnesses } from "./witnesses.js";

/** One side of a diff: a loaded bundle and the validators compiled while loading it. */
export interface DiffSide {
  /** How the side is named in output (`working tree`, `main (1a2b3c…)`, a directory). */
  readonly label: string;
  readonly bundle: PolicyBundle;
  readonly validators: ReadonlyMap<string, ArgumentValidator>;
}

/** What a side decided for a call: `invalid` is an unknown tool, bad arguments or a bad context. */
export interface SideDecision {
  readonly action: PolicyAction | "invalid";
  readonly statementIds: readonly string[];
}

/** Where a call came from (`engine`: a witness of a region the decision engine found and both controllers confirmed). */
export type CallSource = "test" | "recorded" | "generated" | "engine";

/**
 * How the decision moved: `loosened` lets more through (deny→ask, deny→allow, ask→allow, and a call that
 * was invalid before), `tightened` the reverse, `changed` neither (deny and invalid both refuse).
 */
export type DecisionChangeKind = "loosened" | "tightened" | "changed";

/** A call the two policies decide differently. */
export interface DecisionChange {
  readonly tool: string;
  readonly arguments: unknown;
  readonly context: ToolContext;
  readonly before: SideDecision;
  readonly after: SideDecision;
  readonly change: DecisionChangeKind;
  readonly source: CallSource;
}

/** The whole diff. The JSON output is `toPolicyDiffJson` of it. */
export interface PolicyDiff {
  readonly base: { readonly label: string; readonly fingerprint: string };
  readonly head: {
    readonly label: string;
    readonly fingerprint: string;
    /** The head's own policy file (or its config file): where a change with no line of its own is shown. */
    readonly anchor: string;
    /** The head's configuration file: where a setting change is shown. */
    readonly configFile: string;
  };
  readonly statements: StatementChanges;
  /** Configuration settings that change how strictly the policy is enforced (mode, grants, audit, …). */
  readonly settings: readonly SettingChange[];
  /** Loosened first, then tightened, then the rest; by tool within each. */
  readonly decisions: readonly DecisionChange[];
  /** Decisions and settings together: `loosened` counts both, `changed` every decision and setting change. */
  readonly summary: { readonly loosened: number; readonly tightened: number; readonly changed: number };
  /** Where each statement id stands on each side, for output that points at lines. */
  readonly sources: {
    readonly base: ReadonlyMap<string, StatementSource>;
    readonly head: ReadonlyMap<string, StatementSource>;
  };
  /** How many calls each source gave (after merging duplicates). */
  readonly evaluated: {
    readonly test: number;
    readonly recorded: number;
    readonly generated: number;
    readonly engine: number;
  };
  /**
   * The decision engine's answer per tool that both sides declare and the change touches: whether the tool
   * loosens is decided (`complete`) or not (`unknown`, with the reason), and the regions whose decision changed.
   */
  readonly engine: readonly ToolRegions[];
}

/** Options of `diffPolicies`. */
export interface DiffOptions {
  /** Calls from an audit log (`--calls`). */
  readonly recorded?: readonly RecordedCall[];
  /** Generate witness calls from the changed statements (default true). */
  readonly generate?: boolean;
  /** At most this many generated calls that flip alike (same tool, actions and deciding statements); default 3. */
  readonly witnessesPerGroup?: number;
  /** Search every changed tool's calls with the decision engine (default true). */
  readonly engine?: boolean;
}

// A call the schema refuses never runs: as strict as a deny.
const RANK: Readonly<Record<SideDecision["action"], number>> = { ...ACTION_RANK, invalid: ACTION_RANK.deny };
const CHANGE_ORDER: Readonly<Record<DecisionChangeKind, number>> = { loosened: 0, tightened: 1, changed: 2 };
const SOURCE_ORDER: Readonly<Record<CallSource, number>> = { test: 0, recorded: 1, generated: 2, engine: 3 };

/** Classifies a pair of different actions. */
export function classifyChange(
  before: SideDecision["action"],
  after: SideDecision["action"],
): DecisionChangeKind {
  if (RANK[after] < RANK[before]) return "loosened";
  if (RANK[after] > RANK[before]) return "tightened";
  return "changed";
}

/**
 * Decides calls on one side as the controller does: the tool must exist, the arguments pass the tool's
 * validator and the context the `context_schema` validator (the same compiled validators the controller
 * uses), and then the policy decides.
 */
class Judge {
  readonly #policy: ToolPolicy;
  /** The configuration's mode: the diff compares what the controller does, as `explain` shows it. */
  readonly #mode: ControllerMode;
  readonly #validators: ReadonlyMap<string, ArgumentValidator>;
  readonly #context: ArgumentValidator | undefined;
  /** Decisions by canonical call: generation asks whether a call is valid, and then what it decides. */
  readonly #memo = new Map<string, SideDecision>();
  readonly #contexts = new Map<string, boolean>();

  constructor(side: DiffSide) {
    this.#policy = bundlePolicy(side.bundle);
    this.#mode = side.bundle.settings.mode ?? DEFAULT_MODE;
    this.#validators = side.validators;
    const schema = side.bundle.contextSchema;
    if (schema !== null) {
      const compiled = sharedValidatorFactory().compile(schema);
      // The loader compiled the same schema: it cannot fail here; if it did, every context is refused.
      this.#context = compiled.ok ? compiled.validator : () => ({ ok: false, issues: [] });
    }
  }

  #contextValid(context: ToolContext): boolean {
    if (this.#context === undefined) return true;
    const key = canonicalJson(context);
    let ok = this.#contexts.get(key);
    if (ok === undefined) {
      ok = this.#context(context).ok;
      this.#contexts.set(key, ok);
    }
    return ok;
  }

  decide(key: string, tool: string, args: unknown, context: ToolContext): SideDecision {
    let decision = this.#memo.get(key);
    if (decision === undefined) {
      const validate = this.#validators.get(tool);
      if (validate === undefined || !validate(args).ok || !this.#contextValid(context)) decision = INVALID;
      else {
        const decided = this.#policy.decide({ callId: "diff", toolName: tool, arguments: args }, context);
        const d = applyMode(decided, this.#mode).decision;
        decision = { action: d.action, statementIds: d.ruleIds };
      }
      this.#memo.set(key, decision);
    }
    return decision;
  }
}

const INVALID: SideDecision = Object.freeze({ action: "invalid", statementIds: Object.freeze([]) });

/** The key of a call: equal calls, equal keys; `undefined` for what is not JSON. */
function callKey(tool: string, args: unknown, context: ToolContext): string | undefined {
  try {
    return canonicalJson([tool, args, context]);
  } catch {
    return undefined;
  }
}

function sourceMap(statements: readonly StatementSpec[]): Map<string, StatementSource> {
  const map = new Map<string, StatementSource>();
  for (const s of statements) if (s.source !== undefined && !map.has(s.id)) map.set(s.id, s.source);
  return map;
}

function statementsByTool(statements: readonly StatementSpec[]): Map<string, StatementSpec[]> {
  const map = new Map<string, StatementSpec[]>();
  for (const s of statements) {
    for (const tool of s.tools) {
      const list = map.get(tool);
      if (list === undefined) map.set(tool, [s]);
      else list.push(s);
    }
  }
  return map;
}

/** The tools whose decisions a change may move: those of changed statements, and those whose schema changed. */
function affectedTools(base: PolicyBundle, head: PolicyBundle, pairs: readonly StatementPair[]): string[] {
  const tools = new Set<string>();
  for (const pair of pairs)
    for (const s of [pair.base, pair.head]) for (const t of s?.tools ?? []) tools.add(t);
  const before = new Map(base.tools.map((t) => [t.name, canonicalJson(t.inputSchema)]));
  const after = new Map(head.tools.map((t) => [t.name, canonicalJson(t.inputSchema)]));
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    if (before.get(name) !== after.get(name)) tools.add(name);
  }
  if (canonicalJson(base.contextSchema) !== canonicalJson(head.contextSchema)) {
    for (const name of after.keys()) tools.add(name);
  }
  return [...tools].sort();
}

/**
 * Compares two loaded policies.
 * @param base - the policy before the change.
 * @param head - the policy after it.
 * @returns statement changes and every decision change found, with its witness call.
 */
export function diffPolicies(base: DiffSide, head: DiffSide, options: DiffOptions = {}): PolicyDiff {
  const { changes, pairs } = compareStatements(base.bundle.statements, head.bundle.statements);
  const order: Readonly<Record<string, number>> = { loosened: 0, tightened: 1, changed: 2 };
  const settings = [
    ...compareSettings(base.bundle.settings, head.bundle.settings),
    ...compareAliases(base.bundle.aliases, head.bundle.aliases),
  ].sort((x, y) => (order[x.change] ?? 2) - (order[y.change] ?? 2));
  // Another mode moves the decisions of every tool, not only those of changed statements.
  const modeChanged = settings.some((c) => c.setting === "mode");
  const before = new Judge(base);
  const after = new Judge(head);
  const perGroup = options.witnessesPerGroup ?? 3;

  const found: DecisionChange[] = [];
  const seen = new Set<string>();
  const groups = new Map<string, number>();
  const evaluated = { test: 0, recorded: 0, generated: 0, engine: 0 };
  const consider = (tool: string, args: unknown, context: ToolContext, source: CallSource) => {
    const key = callKey(tool, args, context);
    if (key === undefined || seen.has(key)) return;
    seen.add(key);
    evaluated[source]++;
    const b = before.decide(key, tool, args, context);
    const a = after.decide(key, tool, args, context);
    if (a.action === b.action) return;
    if (source === "engine") {
      // A region's witness adds to the report only what the other sources did not show already: the same
      // tool moved between the same decisions of the same statements.
      const group = canonicalJson([tool, b, a]);
      if (found.some((d) => canonicalJson([d.tool, d.before, d.after]) === group)) return;
    }
    if (source === "generated") {
      const group = canonicalJson([tool, b, a]);
      const count = groups.get(group) ?? 0;
      if (count >= perGroup) return;
      groups.set(group, count + 1);
    }
    found.push({
      tool,
      arguments: args,
      context,
      before: b,
      after: a,
      change: classifyChange(b.action, a.action),
      source,
    });
  };

  for (const bundle of [base.bundle, head.bundle]) {
    for (const t of bundle.tests) consider(t.tool, t.arguments, t.context ?? {}, "test");
  }
  for (const call of options.recorded ?? []) consider(call.tool, call.arguments, {}, "recorded");

  if (options.generate !== false) {
    const baseByTool = statementsByTool(base.bundle.statements);
    const headByTool = statementsByTool(head.bundle.statements);
    const changedSet = new Set<StatementSpec>();
    for (const pair of pairs) {
      if (pair.base !== undefined) changedSet.add(pair.base);
      if (pair.head !== undefined) changedSet.add(pair.head);
    }
    if (modeChanged)
      for (const st of [...base.bundle.statements, ...head.bundle.statements]) changedSet.add(st);
    const schemaOf = (bundle: PolicyBundle, tool: string) =>
      bundle.tools.find((t) => t.name === tool)?.inputSchema;
    const tools = modeChanged
      ? [...new Set([...base.bundle.tools, ...head.bundle.tools].map((t) => t.name))].sort()
      : affectedTools(base.bundle, head.bundle, pairs);
    for (const tool of tools) {
      const all = [...(baseByTool.get(tool) ?? []), ...(headByTool.get(tool) ?? [])];
      const schemas = [schemaOf(base.bundle, tool), schemaOf(head.bundle, tool)].filter(
        (s) => s !== undefined,
      );
      const contextSchemas = [base.bundle.contextSchema, head.bundle.contextSchema].filter((s) => s !== null);
      const calls = generateWitnesses({
        tool,
        schemas,
        contextSchemas,
        changed: all.filter((s) => changedSet.has(s)),
        others: all.filter((s) => !changedSet.has(s)),
        isValid: (args, context) => {
          const key = callKey(tool, args, context);
          return (
            key !== undefined &&
            (after.decide(key, tool, args, context) !== INVALID ||
              before.decide(key, tool, args, context) !== INVALID)
          );
        },
      });
      for (const call of calls) consider(tool, call.arguments, call.context, "generated");
    }
  }

  // The engine last: its regions cover what the heuristics may have missed, and its witnesses are deduplicated
  // against theirs.
  const regions = options.engine === false ? [] : diffRegions(base, head);
  for (const tool of regions) {
    for (const change of tool.changes) consider(change.tool, change.arguments, change.context, "engine");
  }
  // A loosening confirmed by any source decides whether the tool loosens, even where the engine alone could not.
  const engine = regions.map((t): ToolRegions => {
    if (t.status === "complete" || !found.some((d) => d.tool === t.tool && d.change === "loosened")) return t;
    return { tool: t.tool, status: "complete", changes: t.changes };
  });

  const decisions = found
    .map((d, index) => ({ d, index }))
    .sort(
      (x, y) =>
        CHANGE_ORDER[x.d.change] - CHANGE_ORDER[y.d.change] ||
        (x.d.tool < y.d.tool ? -1 : x.d.tool > y.d.tool ? 1 : 0) ||
        SOURCE_ORDER[x.d.source] - SOURCE_ORDER[y.d.source] ||
        x.index - y.index,
    )
    .map(({ d }) => d);
  return {
    base: { label: base.label, fingerprint: base.bundle.fingerprint },
    head: {
      label: head.label,
      fingerprint: head.bundle.fingerprint,
      anchor:
        head.bundle.statements.find((st) => (st.source?.layer ?? 0) === 0 && st.source !== undefined)?.source
          ?.file ?? head.bundle.configFile,
      configFile: head.bundle.configFile,
    },
    statements: changes,
    settings,
    decisions,
    summary: {
      loosened: [...decisions, ...settings].filter((d) => d.change === "loosened").length,
      tightened: [...decisions, ...settings].filter((d) => d.change === "tightened").length,
      changed: decisions.length + settings.length,
    },
    sources: { base: sourceMap(base.bundle.statements), head: sourceMap(head.bundle.statements) },
    evaluated,
    engine,
  };
}

/** True when the diff reports anything: a statement added, removed or changed, or a decision that moved. */
export function hasChanges(diff: PolicyDiff): boolean {
  const s = diff.statements;
  return (
    diff.decisions.length > 0 ||
    diff.settings.length > 0 ||
    s.added.length + s.removed.length + s.changed.length > 0
  );
}
