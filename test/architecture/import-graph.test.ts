/**
 * The import graph of src/ between its top-level folders runs one way, down the pipeline YAML → bundle →
 * controller: every folder has its place in LAYERS and imports only folders of lower layers, so no folder
 * reaches itself through others (no cycle); src/runtime/ — the core every other stage and every compiled
 * module builds on — imports nothing outside itself; and the stages that consume the bundle (codegen,
 * compile, the policy tests, the assembly) never import the YAML stage (src/config/). Within folders, no file
 * reaches itself through others either. Every static, re-export and dynamic import of every src/**\/*.ts file
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

/**
 * The layers of src/, lowest first. A folder imports only folders of lower layers: never one of its own
 * layer, never one above. Every top-level folder of src/ is in exactly one layer (`.` is the package entry,
 * src/index.ts), so a new folder must be given its place here.
 */
const LAYERS: readonly { readonly folders: readonly string[]; readonly role: string }[] = [
  { folders: ["runtime"], role: "the core: decisions, approvals, the one controller assembly, the engines" },
  {
    folders: ["diagnostics", "validation", "stores", "adapters", "import"],
    role: "beside the core, each on it alone: diagnostics and their formats, argument validators, stores and sinks, provider adapters, reading other tools' permission settings",
  },
  {
    folders: ["hosts"],
    role: "the one host-adapter shape and its adapters (hooks, OpenCode, MCP gateway, the frameworks, conversion shapes), on the provider adapters",
  },
  {
    folders: ["frameworks", "agents"],
    role: "framework integrations (AI SDK, LangChain/LangGraph, Claude Agent SDK, OpenAI Agents), each over its host adapter",
  },
  {
    folders: ["bundle"],
    role: "the frozen, fingerprinted policy bundle and what it determines for a controller",
  },
  {
    folders: ["config", "codegen", "testing", "notify", "inbox"],
    role: "the stages over the bundle — YAML → bundle (config), bundle → types (codegen), the policy tests, notifiers from the bundle's settings — and the approval inbox",
  },
  {
    folders: ["verify"],
    role: "the decision engine over every call, on the bundle and the runtime's operators: properties proven for `verify`, the regions of calls a change moves for `diff`",
  },
  {
    folders: ["compile", "lint", "composition", "diff", "scaffold"],
    role: "what combines those: bundle → controller module (compile), lint (load, check, test), the composition root, policy diff (its heuristics and the decision engine), init",
  },
  { folders: ["mcp-proxy"], role: "the MCP gateway, a controller composed in front of MCP servers" },
  { folders: ["cli"], role: "the command line" },
  { folders: ["."], role: "the package entry" },
];

/** The YAML stage, and the folders that consume the bundle it makes and so must not import it. */
const YAML_STAGE = "config";
const BUNDLE_CONSUMERS: readonly string[] = ["bundle", "codegen", "compile", "testing", "runtime"];

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

/** The layer of each folder, by its index in `layers`. */
function layerIndex(layers: typeof LAYERS): Map<string, number> {
  return new Map(layers.flatMap(({ folders }, index) => folders.map((folder) => [folder, index] as const)));
}

/**
 * The imports between folders that do not run down the layers (to the same layer or a higher one), and the
 * folders of either end that have no layer, each as a line for the message.
 */
function importsAgainstLayers(imports: readonly FileImport[], layers: typeof LAYERS): string[] {
  const layerOf = layerIndex(layers);
  const wrong: string[] = [];
  for (const { from, to } of imports) {
    const a = folderOf(from);
    const b = folderOf(to);
    if (a === b) continue;
    const la = layerOf.get(a);
    const lb = layerOf.get(b);
    if (la === undefined || lb === undefined)
      wrong.push(`${from} → ${to}: ${la === undefined ? a : b} has no layer`);
    else if (lb >= la)
      wrong.push(`${from} → ${to}: ${a} (layer ${la}) imports ${b} (layer ${lb}), which is not below it`);
  }
  return wrong;
}

/**
 * The strongly connected components with more than one node (Tarjan): each is a set of folders (or files)
 * that reach one another, i.e. one or more cycles. Sorted, for stable messages.
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
    expect(graph.get("composition")?.has("bundle")).toBe(true);
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

  it("has no cycle between files either, type-only imports included", () => {
    const files = new Map<string, Map<string, string>>();
    for (const { from, to } of imports)
      files.set(from, (files.get(from) ?? new Map()).set(to, `${from} → ${to}`));
    expect(folderCycles(files)).toEqual([]);
  });

  it("places every top-level folder of src/ in exactly one layer", () => {
    const placed = LAYERS.flatMap(({ folders }) => folders);
    expect(placed.length).toBe(new Set(placed).size);
    const present = new Set(sourceFiles(SRC).map((file) => folderOf(posix(relative(SRC, file)))));
    expect([...placed].sort()).toEqual([...present].sort());
  });

  it("runs every import between folders down the layers: none to its own layer, none back up", () => {
    expect(importsAgainstLayers(imports, LAYERS)).toEqual([]);
  });

  it("codegen/, compile/, the policy tests and the assembly read the bundle, never the YAML stage", () => {
    const toYaml = imports
      .filter(({ from, to }) => BUNDLE_CONSUMERS.includes(folderOf(from)) && folderOf(to) === YAML_STAGE)
      .map(({ from, to }) => `${from} → ${to}`);
    expect(toYaml).toEqual([]);
    // They do read the bundle (the check above is about a real dependency, not an absent one).
    for (const consumer of ["codegen", "compile", "testing"])
      expect(graph.get(consumer)?.has("bundle")).toBe(true);
  });

  it("the layer check finds an import back up, an import within a layer and a folder with no layer", () => {
    const layers = [
      { folders: ["runtime"], role: "" },
      { folders: ["bundle"], role: "" },
      { folders: ["config", "codegen"], role: "" },
      { folders: ["composition"], role: "" },
    ];
    const at = (from: string, to: string): FileImport => ({ from: `${from}/a.ts`, to: `${to}/b.ts` });
    expect(importsAgainstLayers([at("codegen", "bundle"), at("composition", "runtime")], layers)).toEqual([]);
    expect(importsAgainstLayers([at("runtime", "bundle")], layers)).toEqual([
      "runtime/a.ts → bundle/b.ts: runtime (layer 0) imports bundle (layer 1), which is not below it",
    ]);
    expect(importsAgainstLayers([at("codegen", "config")], layers)).toEqual([
      "codegen/a.ts → config/b.ts: codegen (layer 2) imports config (layer 2), which is not below it",
    ]);
    expect(importsAgainstLayers([at("bundle", "composition"), at("lint", "config")], layers)).toEqual([
      "bundle/a.ts → composition/b.ts: bundle (layer 1) imports composition (layer 3), which is not below it",
      "lint/a.ts → config/b.ts: lint has no layer",
    ]);
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
