/**
 * The policy's layers for the load: the policy file and, depth-first, every file its `extends` names, each
 * read as a layer (`PolicyLayer`) numbered by its depth; a cycle is an error at the `extends` entry that
 * closes it.
 */
import { basename, dirname, extname, resolve } from "node:path";
import type { PolicyLayer } from "../check-policy.js";
import { diagnosticAt, type ParsedFile } from "../parse-yaml.js";
import { type Reader, toDisplayPath } from "./read-files.js";
import type { LoadSteps } from "./read-protocol.js";

/**
 * Loads the policy layers, following `extends` depth-first; a cycle is an error. `complete` is false when a
 * policy file could not be loaded.
 */
export function* readLayers(
  reader: Reader,
  policyPath: string,
  config: ParsedFile,
): LoadSteps<{ layers: PolicyLayer[]; complete: boolean; allRead: boolean }> {
  const layers: PolicyLayer[] = [];
  let complete = true;
  // Every file was read (some perhaps without the parts that failed their schema).
  let allRead = true;
  const loaded = new Set<string>();
  const visit = function* (
    absolute: string,
    chain: readonly string[],
    from: { parsed: ParsedFile; pointer: string },
  ): LoadSteps<void> {
    if (loaded.has(absolute)) return;
    loaded.add(absolute);
    const parsed = yield* reader.read(absolute, "policy", from);
    if (parsed === undefined || reader.partial.has(absolute)) complete = false;
    if (parsed === undefined) {
      allRead = false;
      return;
    }
    layers.push({ parsed, layer: chain.length, label: basename(absolute, extname(absolute)) });
    const extendsList = (parsed.data as { extends?: readonly string[] }).extends ?? [];
    for (const [index, entry] of extendsList.entries()) {
      const target = resolve(dirname(absolute), entry);
      const pointer = `/extends/${index}`;
      if (target === absolute || chain.includes(target)) {
        const cycle = [...chain, absolute, target].map((p) => toDisplayPath(reader.cwd, p)).join(" → ");
        reader.diagnostics.push(
          diagnosticAt(
            parsed,
            pointer,
            "extends-cycle",
            `extends forms a cycle (${cycle}); remove one of the links`,
          ),
        );
        continue;
      }
      yield* visit(target, [...chain, absolute], { parsed, pointer });
    }
  };
  yield* visit(policyPath, [], { parsed: config, pointer: "/policy" });
  return { layers, complete, allRead };
}
