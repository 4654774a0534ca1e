import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests import the package by name, as a user does; the names map to the sources.
    alias: [
      { find: /^toolgate\/runtime$/, replacement: src("runtime/index.ts") },
      { find: /^toolgate\/compiled$/, replacement: src("runtime/compiled.ts") },
      { find: /^toolgate\/adapters$/, replacement: src("adapters/index.ts") },
      { find: /^toolgate\/stores$/, replacement: src("stores/index.ts") },
      { find: /^toolgate\/agents$/, replacement: src("agents/index.ts") },
      { find: /^toolgate\/ai-sdk$/, replacement: src("frameworks/ai-sdk.ts") },
      { find: /^toolgate\/claude-agent-sdk$/, replacement: src("frameworks/claude-agent-sdk.ts") },
      { find: /^toolgate\/langchain$/, replacement: src("frameworks/langchain.ts") },
      { find: /^toolgate\/opencode$/, replacement: src("composition/opencode.ts") },
      { find: /^toolgate$/, replacement: src("index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
