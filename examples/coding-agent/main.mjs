#!/usr/bin/env node
// A coding agent driven by a scripted model (recorded OpenAI or Anthropic responses), gated by the compiled
// toolgate controller of the reference policy. It reads a file (allow), is refused .env (deny: the rule and
// reason go back to the model), and asks to apply a patch (ask: a person approves or rejects it; the request
// lives in SQLite). Every step is written to a hash-chained audit log, verified at the end.
//
//   npm run demo                                  interactive: answer y/n at the approval prompt
//   npm run demo -- --approve all|none            without a person (CI)
//   npm run demo -- --provider anthropic          the Anthropic transcript instead of OpenAI's
//   npm run demo -- --mcp                         a real MCP server behind toolgate mcp-proxy (see mcp.mjs)
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { createInterface } from "node:readline/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openApprovalStore, openAuditSink, PendingApprovals, ToolFailure, verifyAuditLog } from "toolgate";
import {
  fromAnthropicToolUse,
  fromOpenAIToolCalls,
  toAnthropicToolResultMessage,
  toAnthropicTools,
  toOpenAIToolMessage,
  toOpenAITools,
} from "toolgate/adapters";

const here = dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({
  options: {
    provider: { type: "string", default: "openai" },
    approve: { type: "string", default: "ask" },
    state: { type: "string", default: join(here, ".state") },
    mcp: { type: "boolean", default: false },
  },
});
if (!["openai", "anthropic"].includes(flags.provider))
  fail(`--provider must be openai or anthropic, got ${flags.provider}`);
if (!["ask", "all", "none"].includes(flags.approve))
  fail(`--approve must be all, none or ask, got ${flags.approve}`);

/** "1 line" or "N lines": how much a tool returned. */
function lines(text) {
  const count = text.split("\n").length;
  return `${count} ${count === 1 ? "line" : "lines"}`;
}

function fail(message) {
  console.error(`demo: ${message}`);
  process.exit(2);
}

if (flags.mcp) {
  const { runMcpDemo } = await import("./mcp.mjs");
  process.exit(await runMcpDemo(flags));
}

// A fresh copy of the sample workspace and fresh state for every run.
const state = resolve(flags.state);
await rm(state, { recursive: true, force: true });
const workspace = join(state, "workspace");
await mkdir(state, { recursive: true });
await cp(join(here, "workspace"), workspace, { recursive: true });

/** Resolves a workspace path; the handlers refuse to leave the workspace even if a policy allowed it. */
function inWorkspace(path) {
  const full = resolve(workspace, path);
  if (full !== workspace && !full.startsWith(workspace + sep))
    throw new ToolFailure(`${path} is outside the workspace`);
  return full;
}

async function readText(path) {
  try {
    return await readFile(inWorkspace(path), "utf8");
  } catch (error) {
    if (error instanceof ToolFailure) throw error;
    throw new ToolFailure(`cannot read ${path}: ${error.code ?? error.message}`);
  }
}

/** Applies a unified diff whose hunks match the files exactly; anything else is a ToolFailure. */
async function applyPatch(patch) {
  const changed = [];
  const files = patch.split(/^--- .*\n/m).slice(1);
  if (files.length === 0) throw new ToolFailure("the patch has no file header (--- a/… / +++ b/…)");
  for (const section of files) {
    const target = /^\+\+\+ (?:b\/)?(.+)\n/.exec(section);
    if (!target) throw new ToolFailure("a file section has no +++ line");
    const path = target[1].trim();
    let text = await readText(path);
    for (const hunk of section.split(/^@@.*@@.*\n/m).slice(1)) {
      const lines = hunk.replace(/\n$/, "").split("\n");
      const before = lines.filter((l) => !l.startsWith("+")).map((l) => l.slice(1));
      const after = lines.filter((l) => !l.startsWith("-")).map((l) => l.slice(1));
      const old = `${before.join("\n")}\n`;
      if (!text.includes(old)) throw new ToolFailure(`hunk does not apply to ${path}`);
      text = text.replace(old, `${after.join("\n")}\n`);
    }
    await writeFile(inWorkspace(path), text);
    changed.push(path);
  }
  return `patched ${changed.join(", ")}`;
}

const unavailable = (what) => () => {
  throw new ToolFailure(`${what} is not available in this demo`);
};

const handlers = {
  read_file: ({ path }) => readText(path),
  list_dir: async ({ path }) => (await readdir(inWorkspace(path))).sort().join("\n"),
  search_text: async ({ query, path }) => {
    const text = await readText(path);
    return text
      .split("\n")
      .filter((line) => line.includes(query))
      .join("\n");
  },
  write_file: async ({ path, content }) => {
    await writeFile(inWorkspace(path), content);
    return `wrote ${path}`;
  },
  apply_patch: ({ patch }) => applyPatch(patch),
  run_shell: unavailable("run_shell"),
  http_fetch: unavailable("http_fetch"),
  git_commit: unavailable("git_commit"),
};

// The compiled controller: one ES module generated by `toolgate compile` from the reference policy.
const compiled = await import("./generated/controller.mjs");
const approvalsStore = openApprovalStore(`sqlite:${join(state, "approvals.db")}`);
const auditLog = join(state, "audit.jsonl");
const audit = openAuditSink(`jsonl:${auditLog}`);
const controller = compiled.createController({
  handlers,
  approvals: new PendingApprovals({ store: approvalsStore }),
  audit,
});

const transcript = JSON.parse(await readFile(join(here, "fixtures", `${flags.provider}.json`), "utf8"));
const shape =
  flags.provider === "openai"
    ? {
        tools: toOpenAITools(controller),
        read: (response) => fromOpenAIToolCalls(response),
        text: (response) => response.choices[0].message.content,
        feedBack: (results) => results.map(toOpenAIToolMessage),
      }
    : {
        tools: toAnthropicTools(controller),
        read: (response) => fromAnthropicToolUse(response),
        text: (response) =>
          response.content
            .filter((b) => b.type === "text")
            .map((b) => b.text)
            .join(" ") || null,
        feedBack: (results) => [toAnthropicToolResultMessage(results)],
      };

let terminal;
async function askPerson(request) {
  console.log(
    `  ┌ approval needed: ${request.call.toolName} (${request.approvalId.slice(0, 12)}…, stored in SQLite)`,
  );
  console.log(`  │ reason:    ${request.reason} [${request.ruleIds.join(", ")}]`);
  for (const [key, value] of Object.entries(request.call.arguments)) {
    const text = (typeof value === "string" ? value : JSON.stringify(value)).replace(/\n$/, "");
    console.log(`  │ ${`${key}:`.padEnd(10)} ${text.split("\n").join("\n  │            ")}`);
  }
  if (flags.approve !== "ask") {
    console.log(`  └ --approve ${flags.approve}: ${flags.approve === "all" ? "approved" : "rejected"}`);
    return flags.approve === "all";
  }
  if (!process.stdin.isTTY) {
    console.log("  └ no terminal to ask and no --approve given: rejected (fail closed)");
    return false;
  }
  terminal ??= createInterface({ input: process.stdin, output: process.stdout });
  const answer = (await terminal.question("  └ approve? [y/N] ")).trim().toLowerCase();
  return answer === "y" || answer === "yes";
}

console.log(`toolgate demo — ${flags.provider} transcript, policy ${compiled.fingerprint.slice(0, 19)}…`);
console.log(`tools offered to the model: ${shape.tools.map((t) => t.name ?? t.function.name).join(", ")}`);
console.log(`user: ${transcript.task}\n`);

const counts = { allow: 0, deny: 0, ask: 0, approved: 0, rejected: 0 };
let rejectedPatch = false;
for (const response of transcript.responses) {
  const converted = shape.read(response);
  const said = shape.text(response);
  if (converted.calls.length === 0 && converted.errors.length === 0) {
    console.log(`model: ${rejectedPatch ? transcript.answerIfRejected : said}`);
    break;
  }
  if (said) console.log(`model: ${said}`);
  const results = [...converted.errors];
  for (const call of converted.calls) {
    console.log(`→ ${call.toolName} ${JSON.stringify(call.arguments).slice(0, 100)}`);
    let outcome = await controller.handle(call);
    if (outcome.kind === "approval-request") {
      counts.ask++;
      const approved = await askPerson(outcome);
      counts[approved ? "approved" : "rejected"]++;
      outcome = await controller.resolve({
        approvalId: outcome.approvalId,
        approved,
        approver: flags.approve === "ask" ? "terminal" : `--approve ${flags.approve}`,
        ...(approved ? {} : { reason: "the person declined the change" }),
      });
      if (call.toolName === "apply_patch" && outcome.isError) rejectedPatch = true;
      console.log(`  ask → ${outcome.isError ? "error" : "ran"}: ${outcome.content}`);
    } else if (outcome.isError && outcome.content.startsWith("denied by policy")) {
      counts.deny++;
      console.log(`  deny: ${outcome.content}`);
    } else {
      counts.allow++;
      console.log(`  allow → ${outcome.isError ? "error" : "ran"}: ${lines(outcome.content)} returned`);
    }
    results.push(outcome);
  }
  // What goes back to the model, in the provider's own shape.
  for (const message of shape.feedBack(results))
    console.log(`  ⇢ to model: ${JSON.stringify(message).slice(0, 160)}`);
}

terminal?.close();
await approvalsStore.close();
await audit.close();
const check = verifyAuditLog(auditLog);
const patched = await readFile(join(workspace, "src/greet.ts"), "utf8");
console.log(`\nsrc/greet.ts now returns: ${/return (.*);/.exec(patched)?.[1]}`);
console.log(
  `summary: allow ${counts.allow}, deny ${counts.deny}, ask ${counts.ask} (approved ${counts.approved}, rejected ${counts.rejected})`,
);
console.log(
  `audit: ${relative(process.cwd(), auditLog)} — ${check.ok ? `${check.lines} events, hash chain intact` : `BROKEN at line ${check.line}: ${check.message}`}`,
);
process.exitCode = check.ok ? 0 : 1;
