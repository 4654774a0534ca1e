// Shared by the table oracles: a command string decided through the public matcher API, the way a policy decides
// it, and checked against a policy's CommandPrefixSet (a separate walk over the same tables).
import { expect } from "vitest";
import { CommandPrefixSet, matchCommand, parseCommandPrefixSpec } from "../../../src/runtime/match/shell.js";

/** A prefix as a policy writes it (`"git log"`, `{ prefix, options }`), or its words when they need quoting. */
export type Spec = Parameters<typeof parseCommandPrefixSpec>[0] | readonly string[];

export function decide(source: string, spec: Spec): { certain: boolean; possible: boolean } {
  let prefix: Parameters<typeof matchCommand>[1][number];
  if (Array.isArray(spec)) prefix = spec as readonly string[];
  else {
    const parsed = parseCommandPrefixSpec(spec as Parameters<typeof parseCommandPrefixSpec>[0]);
    if (!parsed.ok) throw new Error(parsed.message);
    prefix = parsed.prefix;
  }
  const direct = matchCommand(source, [prefix]);
  const set = new CommandPrefixSet();
  const ids = set.add([prefix]);
  expect(set.match(source, ids.from, ids.to), `CommandPrefixSet on ${JSON.stringify(source)}`).toEqual(
    direct,
  );
  return direct;
}

/** May an allow statement with this prefix decide the command without a person? */
export const allowCertain = (source: string, spec: Spec): boolean => decide(source, spec).certain;

/** May a deny or ask statement with this prefix match the command? */
export const denyMay = (source: string, spec: Spec): boolean => decide(source, spec).possible;
