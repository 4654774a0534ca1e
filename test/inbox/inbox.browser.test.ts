/**
 * The approval inbox in a real browser (Debian chromium through playwright-core): a waiting application runs
 * the call exactly once after a person approves it in the page; of two approvers clicking at once exactly one
 * is recorded and the other is told it was already decided; values from the model show as text; forms without
 * the session's CSRF token are refused; other addresses need a token or a proxy header.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Inbox, InboxConfigError, startInbox } from "../../src/inbox/server.js";
import { createController, loadPolicy } from "../../src/index.js";
import type { ApprovalStore } from "../../src/runtime/approval-store.js";
import type { ApprovalRequest, ToolResult } from "../../src/runtime/types.js";
import { PostgresApprovalStore } from "../../src/stores/index.js";
import { openApprovalStore, openAuditSink } from "../../src/stores/open-store.js";
import { runCli, writeTree } from "../cli/cli-helpers.js";
import { dropTables, POSTGRES_URL, uniquePrefix } from "../stores/helpers.js";
import { describeBrowser, launchBrowser } from "./browser.js";

const GRANTS = { maxMs: 24 * 3_600_000, sessionKey: "session_id" };

const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const resource of opened) await resource.close().catch(() => undefined);
});

/** An application with a SQLite approval store and a JSONL audit log, as its configuration says. */
async function application(approvals = "sqlite:state/approvals.db") {
  const dir = writeTree({
    "toolgate.config.yaml": [
      "tools: [tools.yaml]",
      "policy: policy.yaml",
      `approvals: ${approvals}`,
      "audit: { sink: jsonl:state/audit.jsonl, redact: { write_note: [secret] } }",
      "",
    ].join("\n"),
    "tools.yaml": [
      "tools:",
      "  - name: write_note",
      "    description: Write a note.",
      "    input_schema:",
      "      type: object",
      "      properties: { text: { type: string, maxLength: 500 }, secret: { type: string } }",
      "      required: [text]",
      "      additionalProperties: false",
      "",
    ].join("\n"),
    "policy.yaml": [
      "version: 1",
      "ask: [write_note]",
      "reasons:",
      "  write_note: notes need a person's approval",
      "",
    ].join("\n"),
  });
  const bundle = await loadPolicy({ config: join(dir, "toolgate.config.yaml") });
  const written: string[] = [];
  // The application opens the store and the sink its configuration names (and closes them at the end).
  const store = openApprovalStore(`sqlite:${join(dir, "state/approvals.db")}`);
  const audit = openAuditSink(`jsonl:${join(dir, "state/audit.jsonl")}`);
  opened.push(store, audit);
  const controller = createController({
    bundle,
    approvals: store,
    audit,
    handlers: {
      write_note: ({ text }: { text: string }) => {
        written.push(text);
        return `wrote ${text}`;
      },
    },
  });
  let n = 0;
  const ask = async (args: Record<string, unknown>, context?: Record<string, unknown>) => {
    const result = await controller.handle(
      { callId: `call_${++n}`, toolName: "write_note", arguments: args },
      context,
    );
    if (!("approvalId" in result))
      throw new Error(`expected an approval request, got ${JSON.stringify(result)}`);
    return result as ApprovalRequest;
  };
  return { dir, controller, written, ask, storeUrl: `sqlite:${join(dir, "state/approvals.db")}` };
}

const article = (page: Page, id: string) => page.locator(`article[data-id="${id}"]`);

async function decide(page: Page, id: string, button: "Approve" | "Reject", approver: string, reason = "") {
  const item = article(page, id);
  await item.locator('input[name="approver"]').fill(approver);
  if (reason !== "") await item.locator('input[name="reason"]').fill(reason);
  await item.getByRole("button", { name: button }).click();
}

describeBrowser("toolgate approvals serve, in chromium", () => {
  let browser: Browser;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await browser?.close();
  });
  const serve = async (
    store: ApprovalStore,
    extra: Partial<Parameters<typeof startInbox>[0]> = {},
  ): Promise<Inbox> => {
    const inbox = await startInbox({ store, port: 0, grants: GRANTS, pollMs: 200, ...extra });
    closers.push(
      () => inbox.close(),
      () => store.close(),
    );
    return inbox;
  };

  it("approving in the page lets the waiting application run the call exactly once, audited with the approver", async () => {
    const app = await application();
    const request = await app.ask({ text: "hello", secret: "hunter2" });
    const waiting = app.controller.waitForDecision(request.approvalId, { pollMs: 20 });
    const inbox = await serve(openApprovalStore(app.storeUrl), {
      redact: new Map([["write_note", ["secret"]]]),
    });
    const page = await browser.newPage();
    const response = await page.goto(inbox.url);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    const item = article(page, request.approvalId);
    await expect(item.locator("pre.arguments").textContent()).resolves.toContain('"secret": "[redacted]"');
    await expect(item.locator("p.reason").textContent()).resolves.toBe("notes need a person's approval");
    const csrf = await item.locator('input[name="csrf"]').inputValue();
    await decide(page, request.approvalId, "Approve", "alice", "looks fine");
    await expect(page.locator("#message").textContent()).resolves.toMatch(/^Approved .* as alice\.$/);

    const result = (await waiting) as ToolResult;
    expect(result).toEqual({ callId: "call_1", content: "wrote hello", isError: false });
    expect(app.written).toEqual(["hello"]);
    const events = readFileSync(join(app.dir, "state/audit.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).event ?? JSON.parse(line));
    const granted = events.filter((e: { type: string }) => e.type === "approval.granted");
    expect(granted).toMatchObject([
      { approvalId: request.approvalId, approver: "alice", reason: "looks fine" },
    ]);
    expect(events.filter((e: { type: string }) => e.type === "tool.executed")).toHaveLength(1);

    // Deciding again (the form of a page opened before) is refused and changes nothing.
    const again = await page.evaluate(
      async ([url, body]) =>
        (
          await fetch(url as string, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body,
          })
        ).status,
      [
        `${inbox.url}approvals/${request.approvalId}/decision`,
        `decision=approve&approver=alice&csrf=${encodeURIComponent(csrf)}`,
      ],
    );
    expect(again).toBe(409);
    expect(app.written).toEqual(["hello"]);
    await page.close();
  });

  const raceOn = async (store: () => ApprovalStore) => {
    // Two inbox servers, each with its own connection to the store, as two instances behind a load balancer:
    // the store's compare-and-set, not one process, decides who wins.
    const inboxes = [await serve(store()), await serve(store())];
    const shared = store();
    closers.push(() => shared.close());
    const request = await createRequestIn(shared);
    const [ana, bo] = [await browser.newContext(), await browser.newContext()];
    closers.push(
      () => ana.close(),
      () => bo.close(),
    );
    const pages = [await ana.newPage(), await bo.newPage()];
    for (const [i, page] of pages.entries()) await page.goto((inboxes[i] as Inbox).url);
    for (const [i, page] of pages.entries()) {
      await article(page, request.approvalId)
        .locator('input[name="approver"]')
        .fill(i === 0 ? "ana" : "bo");
    }
    await Promise.all(
      pages.map((page) => article(page, request.approvalId).getByRole("button", { name: "Approve" }).click()),
    );
    const titles = await Promise.all(pages.map((page) => page.locator("h1").textContent()));
    expect([...titles].sort()).toEqual(["Already decided", "Approved"]);
    const winner = titles[0] === "Approved" ? "ana" : "bo";
    const loser = pages[titles[0] === "Approved" ? 1 : 0] as Page;
    await expect(loser.locator("#message").textContent()).resolves.toContain(`(approved by ${winner})`);
    const stored = await shared.get(request.approvalId);
    expect(stored.found && stored.approval.response?.approver).toBe(winner);
  };

  it("two approvers clicking Approve at once: exactly one wins, the other sees it was already decided (SQLite)", async () => {
    const app = await application();
    await raceOn(() => openApprovalStore(app.storeUrl));
  });

  it.runIf(POSTGRES_URL !== undefined && POSTGRES_URL !== "")(
    "two approvers clicking Approve at once: exactly one wins, the other sees it was already decided (PostgreSQL)",
    async () => {
      const prefix = uniquePrefix();
      closers.push(() => dropTables(POSTGRES_URL as string, prefix));
      await raceOn(() => new PostgresApprovalStore(POSTGRES_URL as string, { tablePrefix: prefix, max: 4 }));
    },
  );

  it("shows a new request without a reload, and values from the model as text, never as markup", async () => {
    const app = await application();
    const inbox = await serve(openApprovalStore(app.storeUrl));
    const page = await browser.newPage();
    await page.goto(inbox.url);
    await expect(page.locator("p.empty").textContent()).resolves.toBe("No approval requests are waiting.");
    const attack = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
    const request = await app.ask({ text: attack }, { session_id: "</pre><b>bold</b>" });
    const item = article(page, request.approvalId);
    await item.waitFor({ timeout: 10_000 });
    await expect(item.locator("pre.arguments").textContent()).resolves.toContain(
      '"text": "<script>window.__pwned=1</script><img src=x onerror=\\"window.__pwned=2\\">"',
    );
    await expect(item.locator("pre.context").textContent()).resolves.toContain("</pre><b>bold</b>");
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator("script").count()).toBe(1);
    expect(await page.locator("article img, article b").count()).toBe(0);
    // The same after a full render of the page.
    await page.reload();
    expect(await page.locator("article img, article b").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.close();
  });

  it("approve and remember: the same call runs again without asking, other arguments still ask", async () => {
    const app = await application();
    const request = await app.ask({ text: "deploy notes" });
    const waiting = app.controller.waitForDecision(request.approvalId, { pollMs: 20 });
    const inbox = await serve(openApprovalStore(app.storeUrl));
    const page = await browser.newPage();
    await page.goto(inbox.url);
    const item = article(page, request.approvalId);
    await item.locator('input[name="approver"]').fill("dana");
    await item.locator('input[name="remember"][value="arguments"]').check();
    await item.locator('input[name="hours"]').fill("2");
    await item.getByRole("button", { name: "Approve" }).click();
    await expect(page.locator("#message").textContent()).resolves.toMatch(
      /Remembered as grt_\S+ for 2h: same arguments\./,
    );
    await waiting;
    expect(
      await app.controller.handle({
        callId: "again",
        toolName: "write_note",
        arguments: { text: "deploy notes" },
      }),
    ).toEqual({
      callId: "again",
      content: "wrote deploy notes",
      isError: false,
    });
    expect(
      "approvalId" in
        (await app.controller.handle({
          callId: "other",
          toolName: "write_note",
          arguments: { text: "other" },
        })),
    ).toBe(true);
    expect(app.written).toEqual(["deploy notes", "deploy notes"]);
    // More than the cap is refused, and nothing is recorded.
    const next = await app.ask({ text: "long" });
    await page.goto(inbox.url);
    const second = article(page, next.approvalId);
    await second.locator('input[name="approver"]').fill("dana");
    await second.locator('input[name="remember"][value="arguments"]').check();
    await second.locator('input[name="hours"]').evaluate((input: HTMLInputElement) => {
      input.removeAttribute("max");
      input.value = "48";
    });
    await second.getByRole("button", { name: "Approve" }).click();
    await expect(page.locator("#message").textContent()).resolves.toContain("at most 24h");
    expect((await app.controller.approvals.store.get(next.approvalId)).found).toBe(true);
    const still = await app.controller.approvals.store.get(next.approvalId);
    expect(still.found && still.approval.state).toBe("pending");
    await page.close();
  });

  it("refuses a POST without the session's CSRF token, or from another origin (403)", async () => {
    const app = await application();
    const request = await app.ask({ text: "csrf" });
    const inbox = await serve(openApprovalStore(app.storeUrl));
    const page = await browser.newPage();
    await page.goto(inbox.url);
    const csrf = await article(page, request.approvalId).locator('input[name="csrf"]').inputValue();
    const post = (body: string) =>
      page.evaluate(
        async ([url, body]) =>
          (
            await fetch(url as string, {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body,
            })
          ).status,
        [`${inbox.url}approvals/${request.approvalId}/decision`, body],
      );
    expect(await post("decision=approve&approver=mallory")).toBe(403);
    expect(await post(`decision=approve&approver=mallory&csrf=${"x".repeat(csrf.length)}`)).toBe(403);
    // From outside the browser: right cookie and token, but another site's Origin.
    const cookie = (await page.context().cookies())[0];
    const evil = await fetch(`${inbox.url}approvals/${request.approvalId}/decision`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: `${cookie?.name}=${cookie?.value}`,
        origin: "http://evil.example",
      },
      body: `decision=approve&approver=mallory&csrf=${encodeURIComponent(csrf)}`,
    });
    expect(evil.status).toBe(403);
    const stored = await app.controller.approvals.store.get(request.approvalId);
    expect(stored.found && stored.approval.state).toBe("pending");
    // The page's own form, with its token, is recorded.
    expect(await post(`decision=reject&approver=erin&reason=no&csrf=${encodeURIComponent(csrf)}`)).toBe(200);
    await page.close();
  });

  it("a token is required beyond this machine: sign-in with the token, wrong tokens refused", async () => {
    const app = await application();
    const store = openApprovalStore(app.storeUrl);
    closers.push(() => store.close());
    await expect(startInbox({ store, host: "0.0.0.0", port: 0, grants: GRANTS })).rejects.toThrow(
      InboxConfigError,
    );
    await expect(startInbox({ store, host: "0.0.0.0", port: 0, grants: GRANTS })).rejects.toThrow(
      /refusing to serve approvals on 0\.0\.0\.0.*without authentication/,
    );
    await expect(startInbox({ store, port: 0, grants: GRANTS, token: "short" })).rejects.toThrow(
      /at least 16/,
    );
    const cli = await runCli(["approvals", "serve", "--store", app.storeUrl, "--listen", "0.0.0.0:0"]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain("refusing to serve approvals on 0.0.0.0");

    const token = "correct-horse-battery-staple-42";
    const request = await app.ask({ text: "with token" });
    const inbox = await serve(openApprovalStore(app.storeUrl), { host: "0.0.0.0", token });
    const url = inbox.url.replace("0.0.0.0", "127.0.0.1");
    const page = await browser.newPage();
    await page.goto(url);
    expect(await page.locator("h1").textContent()).toBe("Sign in");
    expect(await page.locator("article").count()).toBe(0);
    const fragment = await page.evaluate(async (u) => (await fetch(`${u}fragments/pending`)).text(), url);
    expect(fragment).not.toContain(request.approvalId);
    await page.locator('input[name="token"]').fill("wrong-token-wrong-token");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#message").textContent()).resolves.toBe("That token is not right.");
    await page.locator('input[name="token"]').fill(token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await article(page, request.approvalId).waitFor();
    await page.close();
  });

  it("behind a proxy that names the person: requests without the header are refused; the header is the approver", async () => {
    const app = await application();
    const request = await app.ask({ text: "proxy" });
    const inbox = await serve(openApprovalStore(app.storeUrl), { trustedHeader: "X-Forwarded-User" });
    expect((await fetch(inbox.url)).status).toBe(401);
    const context = await browser.newContext({
      extraHTTPHeaders: { "X-Forwarded-User": "carol@example.com" },
    });
    closers.push(() => context.close());
    const page = await context.newPage();
    await page.goto(inbox.url);
    const item = article(page, request.approvalId);
    expect(await item.locator('input[name="approver"]').count()).toBe(0);
    await expect(item.locator("p.identity").textContent()).resolves.toBe("Deciding as carol@example.com");
    // A forged approver field is ignored.
    await item.locator("form.decide").evaluate((form) => {
      const input = document.createElement("input");
      input.name = "approver";
      input.value = "mallory";
      input.type = "hidden";
      form.appendChild(input);
    });
    await item.getByRole("button", { name: "Approve" }).click();
    await expect(page.locator("#message").textContent()).resolves.toContain("as carol@example.com.");
    const stored = await app.controller.approvals.store.get(request.approvalId);
    expect(stored.found && stored.approval.response?.approver).toBe("carol@example.com");
    await page.close();
  });
});

/** A pending request put straight into a store (as an application on another machine would). */
async function createRequestIn(store: ApprovalStore): Promise<ApprovalRequest> {
  const { PendingApprovals } = await import("../../src/runtime/approvals.js");
  const pending = new PendingApprovals({ store });
  return pending.create(
    { callId: "race", toolName: "write_note", arguments: { text: "race" } },
    { action: "ask", reason: "notes need a person's approval", ruleIds: ["write_note"], statements: [] },
  );
}
