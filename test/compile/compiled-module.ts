/** Helpers for tests that compile a policy into test/.tmp/ and import the emitted module. */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type {
  ApprovalStore,
  AuditSink,
  OnAsk,
  PendingApprovals,
  ToolController,
  ToolPolicy,
  ToolSpec,
} from "toolgate";
import { compileController, declarationPathFor, type PolicyBundle } from "toolgate";
import { ROOT } from "../package/built-package.js";

/** What an emitted controller module exports. */
export interface CompiledModule {
  readonly fingerprint: string;
  readonly specs: readonly ToolSpec[];
  readonly statements: readonly unknown[];
  readonly policy: ToolPolicy;
  createController(options: {
    readonly handlers: { readonly [tool: string]: (args: never, ctx: never) => string | Promise<string> };
    readonly approvals?: PendingApprovals | ApprovalStore;
    readonly audit?: AuditSink;
    readonly onAsk?: OnAsk;
  }): ToolController;
}

/**
 * A fresh directory under test/.tmp/ (inside the package, so that `toolgate/runtime` resolves by
 * self-reference from the emitted module); removed by the returned function.
 */
export function tempDir(label: string): { dir: string; remove: () => void } {
  const dir = join(ROOT, "test", ".tmp", `${label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Compiles a bundle into `dir` and returns the module's path. */
export async function writeCompiled(
  bundle: PolicyBundle,
  dir: string,
  name = "controller.mjs",
): Promise<string> {
  const compiled = await compileController(bundle);
  const file = join(dir, name);
  writeFileSync(file, compiled.module);
  writeFileSync(declarationPathFor(file), compiled.declarations);
  return file;
}

/** Imports an emitted module (in vitest, `toolgate/runtime` maps to the sources, like `toolgate`). */
export async function importCompiled(file: string): Promise<CompiledModule> {
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as CompiledModule;
}
