/**
 * The import graph of src/ between its top-level folders runs one way: no folder reaches itself through
 * others (no cycle), and src/runtime/ — the core every other stage and every compiled module builds on —
 * imports nothing outside itself. Every static, re-export and dynamic import of every src/**\/*.ts file
 * counts; an import that resolves to no file fails the test rather than being skipped.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../package/built-package.js";

const SRC = join(ROOT, "src");

/**
 * Folder cycles that are known and not yet removed, each as its folders in cycle order (`["a", "b"]` is
 * a → b → a), with the reason. Empty: src/ has none. A cycle listed here that no longer exists fails the
 * test too, so that the list never outlives its reason.
 */
const ALLOWED_CYCLES: readonly { readonly folders: readonly string[]; readonly reason: string }[] = [];

/** One import between files of src/, by path relative to src/ with `/` separators. */
interface FileImport {
  readonly from: string;
  readonly to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const posix = (path: string): string => path.split(sep).join("/");

/** Every relative import of every source file, resolved to the file it names (`.js` → `.ts`). */
function fileImports(): { imports: FileImport[]; unresolved: string[] } {
  const imports: FileImport[] = [];
  const unresolved: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const specifiers = ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles;
    for (const { fileName } of specifiers) {
      if (!fileName.startsWith(".")) continue;
      const target = resolve(dirname(file), fileName.replace(/\.js$/, ".ts"));
      if (!existsSync(target)) {
        unresolved.push(`${posix(relative(SRC, file))} imports ${fileName}`);
        continue;
      }
      imports.push({ from: posix(relative(SRC, file)), to: posix(relative(SRC, target)) });
    }
  }
  return { imports, unresolved };
}

/** The top-level folder of a path relative to src/; files directly in src/ (the package entry) are `.`. */
function folderOf(path: string): string {
  const slash = path.indexOf("/");
  return slash === -1 ? "." : path.slice(0, slash);
}

/** Edges between folders, each with one file import that makes it (for the message). */
function folderGraph(imports: readonly FileImport[]): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const { from, to } of imports) {
    const a = folderOf(from);
    const b = folderOf(to);
    if (a === b) continue;
    const out = graph.get(a) ?? new Map<string, string>();
    if (!out.has(b)) out.set(b, `${from} → ${to}`);
    graph.set(a, out);
  }
  return graph;
}

/**
 * The strongly connected components with more than one folder (Tarjan): each is a set of folders that
 * reach one another, i.e. one or more cycles. Sorted, for stable messages.
 */
function folderCycles(graph: ReadonlyMap<string, ReadonlyMap<string, unknown>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const nodes = new Set<string>([...graph.keys(), ...[...graph.values()].flatMap((m) => [...m.keys()])]);
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node)?.keys() ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...nodes].sort()) if (!index.has(node)) visit(node);
  return components.sort((a, b) => a.join().localeCompare(b.join()));
}

describe("the import graph of src/", () => {
  const { imports, unresolved } = fileImports();
  const graph = folderGraph(imports);

  it("reads every source file's imports, and each resolves to a file", () => {
    expect(unresolved).toEqual([]);
    // The graph the checks below read is the real one: it holds edges every build relies on.
    expect(graph.get("cli")?.has("config")).toBe(true);
    expect(graph.get("config")?.has("runtime")).toBe(true);
  });

  it("has no cycle between top-level folders", () => {
    const cycles = folderCycles(graph).map((folders) => {
      const edges = folders.flatMap((a) =>
        folders.flatMap((b) => {
          const via = graph.get(a)?.get(b);
          return via === undefined ? [] : [`${a} → ${b} (${via})`];
        }),
      );
      return { folders, edges };
    });
    const allowed = new Set(ALLOWED_CYCLES.map((c) => [...c.folders].sort().join(",")));
    const unexpected = cycles.filter((c) => !allowed.has(c.folders.join(",")));
    expect(unexpected).toEqual([]);
    const present = new Set(cycles.map((c) => c.folders.join(",")));
    const stale = [...allowed].filter((key) => !present.has(key));
    expect(stale).toEqual([]);
  });

  it("src/runtime/ imports no folder outside it", () => {
    const outward = imports
      .filter(({ from, to }) => folderOf(from) === "runtime" && folderOf(to) !== "runtime")
      .map(({ from, to }) => `${from} → ${to}`);
    expect(outward).toEqual([]);
  });

  it("the cycle finder finds a cycle through several folders and none in a chain", () => {
    const graphOf = (edges: string[]): Map<string, Map<string, string>> => {
      const g = new Map<string, Map<string, string>>();
      for (const edge of edges) {
        const [a, b] = edge.split(">") as [string, string];
        g.set(a, (g.get(a) ?? new Map()).set(b, edge));
      }
      return g;
    };
    // The cycle this graph once had: config → testing → controller → config.
    expect(
      folderCycles(graphOf(["cli>config", "config>testing", "testing>controller", "controller>config"])),
    ).toEqual([["config", "controller", "testing"]]);
    expect(folderCycles(graphOf(["a>b", "b>a", "c>d", "d>c", "b>c"]))).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(
      folderCycles(
        graphOf(["cli>lint", "lint>testing", "lint>config", "testing>controller", "controller>config"]),
      ),
    ).toEqual([]);
  });
});
