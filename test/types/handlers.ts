/**
 * Type tests of the compiled controller's declarations (`toolgate compile` of the reference policy into
 * test/.tmp/types/, done by compiled-types.test.ts before it runs tsc on this file). Each
 * `@ts-expect-error` marks a mistake the generated types must reject; the test also removes those lines
 * and checks that tsc then fails once per line, so that none of them can pass vacuously.
 */
import {
  createController,
  fingerprint,
  type ReadFileArgs,
  type ToolArgs,
  type ToolHandlers,
  type ToolName,
} from "../.tmp/types/toolgate.controller.mjs";

const handlers: ToolHandlers = {
  read_file: ({ path, max_bytes }) => `read ${path} (${max_bytes ?? "all"} bytes)`,
  list_dir: ({ path, recursive }) => `list ${path}${recursive === true ? " -R" : ""}`,
  search_text: ({ query, path }) => `search ${query} in ${path}`,
  write_file: async ({ path, content }) => `wrote ${content.length} characters to ${path}`,
  apply_patch: ({ patch }) => `applied ${patch.length} characters`,
  delete_path: ({ path }) => `deleted ${path}`,
  run_shell: ({ command, timeout_seconds }, ctx) =>
    `ran ${command} (${timeout_seconds ?? 60}s, ${String(ctx.user_role)})`,
  http_fetch: ({ url, method }) => `${method ?? "GET"} ${url}`,
  git_commit: ({ message, amend }) => `${amend === true ? "amended" : "committed"}: ${message}`,
};

// The right handlers compile, and the exports have their declared types.
const controller = createController({ handlers, onAsk: "deny" });
const name: ToolName = "read_file";
const args: ToolArgs[typeof name] = { path: "README.md" } satisfies ReadFileArgs;
const sha: `sha256:${string}` = fingerprint;
void controller.handle({ callId: "call_1", toolName: name, arguments: args });
void sha;

// A handler with the wrong argument type.
createController({
  handlers: {
    ...handlers,
    // @ts-expect-error read_file's path is a string, not a number
    read_file: (args: { path: number }) => args.path.toFixed(0),
  },
});

// A handler that uses an argument the schema does not declare.
createController({
  handlers: {
    ...handlers,
    // @ts-expect-error list_dir has no argument named depth
    list_dir: ({ depth }) => String(depth),
  },
});

// A missing handler.
const { write_file: _withoutWriteFile, ...missingOne } = handlers;
// @ts-expect-error write_file has no handler
createController({ handlers: missingOne });

// A handler for an unknown tool.
createController({
  // @ts-expect-error no tool is named delete_everything
  handlers: { ...handlers, delete_everything: () => "gone" },
});
