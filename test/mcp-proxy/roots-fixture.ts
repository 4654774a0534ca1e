/**
 * A path-scoped policy for @modelcontextprotocol/server-filesystem behind `toolgate mcp-proxy --root DIR`, in a
 * new temporary directory with the tool specs of test/fixtures/mcp-filesystem: reads inside src/ of a root run,
 * secret files are never read, and every other read waits for a person.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../cli/cli-helpers.js";

export const ROOTS_POLICY = `version: 1
allow: [list_allowed_directories]
deny: [read_file, read_media_file, list_directory_with_sizes, directory_tree, move_file, write_file, edit_file, create_directory, list_directory, search_files, get_file_info]
rules:
  - id: read-src
    tools: [read_text_file]
    decision: allow
    when: { path: { glob: "src/**" } }
    reason: reads inside src/ run
  - id: read-many-src
    tools: [read_multiple_files]
    decision: allow
    when: { paths: { all: { glob: "src/**" } } }
    reason: reads inside src/ run
  - id: no-secret-files
    tools: [read_text_file]
    decision: deny
    when: { path: { glob: "**/.env*" } }
    reason: secret files (.env) are never read
  - id: no-keys
    tools: [read_text_file]
    decision: deny
    when: { path: { glob: "/srv/project/src/keys/**" } }
    reason: the keys are never read, however the path is written
otherwise:
  read_text_file: { decision: ask, reason: a read outside src/ needs a person's approval }
  read_multiple_files: { decision: ask, reason: a read outside src/ needs a person's approval }
`;

/** Writes the configuration (with `extra` config lines) into a new temporary directory; returns the config file. */
export function writeRootsConfig(extra = ""): { readonly dir: string; readonly config: string } {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-roots-"));
  copyFileSync(join(ROOT, "test/fixtures/mcp-filesystem/tools.yaml"), join(dir, "tools.yaml"));
  writeFileSync(join(dir, "policy.yaml"), ROOTS_POLICY);
  const config = join(dir, "toolgate.config.yaml");
  writeFileSync(
    config,
    `tools: [tools.yaml]\npolicy: policy.yaml\napprovals: sqlite:.toolgate/state.db\naudit: { sink: "jsonl:.toolgate/audit.jsonl" }\n${extra}`,
  );
  return { dir, config };
}
