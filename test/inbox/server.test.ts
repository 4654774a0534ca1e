/** The inbox's HTTP rules that need no browser: headers, hosts, methods, bodies and sign-in. */
import { afterAll, describe, expect, it } from "vitest";
import { type Inbox, isLoopback, startInbox } from "../../src/inbox/server.js";
import { MemoryApprovalStore } from "../../src/runtime/approval-store.js";
import { PendingApprovals } from "../../src/runtime/approvals.js";

const GRANTS = { maxMs: 24 * 3_600_000, sessionKey: "session_id" };
const running: Inbox[] = [];
afterAll(async () => {
  for (const inbox of running) await inbox.close();
});

async function serve(options: { token?: string } = {}) {
  const store = new MemoryApprovalStore();
  const request = await new PendingApprovals({ store }).create(
    { callId: "c1", toolName: "write_note", arguments: { text: "hi" } },
    { action: "ask", reason: "notes need a person", ruleIds: ["write_note"], statements: [] },
  );
  const inbox = await startInbox({ store, port: 0, grants: GRANTS, ...options });
  running.push(inbox);
  return { inbox, store, request };
}

/** A session cookie and its CSRF token, as the page gives them. */
async function session(url: string) {
  const res = await fetch(url);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await res.text())?.[1] as string;
  return { cookie, csrf, res };
}

describe("the inbox over HTTP", () => {
  it("sends a strict CSP and a SameSite=Strict HttpOnly session cookie", async () => {
    const { inbox } = await serve();
    const { res, csrf } = await session(inbox.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("set-cookie")).toMatch(
      /^toolgate_inbox=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    expect(csrf).toMatch(/^[\w-]{43}$/);
    const script = await fetch(`${inbox.url}assets/inbox.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).not.toContain("innerHTML");
  });

  it("answers only requests that name its loopback address (DNS rebinding)", async () => {
    const { inbox } = await serve();
    const port = new URL(inbox.url).port;
    const { request } = await import("node:http");
    const status = (host: string) =>
      new Promise<number>((done, fail) => {
        const req = request({ host: "127.0.0.1", port, path: "/", headers: { host } }, (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        });
        req.on("error", fail);
        req.end();
      });
    expect(await status("attacker.example")).toBe(421);
    expect(await status(`attacker.example:${port}`)).toBe(421);
    expect(await status(`localhost:${port}`)).toBe(200);
    expect(await status(`127.0.0.1:${port}`)).toBe(200);
  });

  it("records a decision only from a form body with the session's token and this site's origin", async () => {
    const { inbox, store, request } = await serve();
    const { cookie, csrf } = await session(inbox.url);
    const action = `${inbox.url}approvals/${request.approvalId}/decision`;
    const origin = inbox.url.slice(0, -1);
    const body = `decision=approve&approver=ana&csrf=${encodeURIComponent(csrf)}`;
    const post = (headers: Record<string, string>, text = body) =>
      fetch(action, { method: "POST", headers, body: text, redirect: "manual" }).then((r) => r.status);
    const form = { "content-type": "application/x-www-form-urlencoded" };
    expect(await post({ ...form, origin })).toBe(403); // no cookie
    expect(await post({ ...form, cookie })).toBe(403); // no Origin
    expect(await post({ ...form, cookie, origin: "null" })).toBe(403);
    expect(await post({ ...form, cookie, origin }, "decision=approve&approver=ana")).toBe(403);
    expect(await post({ "content-type": "application/json", cookie, origin }, JSON.stringify({ csrf }))).toBe(
      400,
    );
    expect(await post({ ...form, cookie, origin }, `${body}&pad=${"x".repeat(20_000)}`)).toBe(400);
    expect(
      (await store.get(request.approvalId)).found && (await store.get(request.approvalId)),
    ).toMatchObject({
      approval: { state: "pending" },
    });
    expect(await post({ ...form, cookie, origin })).toBe(200);
    expect(await post({ ...form, cookie, "sec-fetch-site": "same-origin" })).toBe(409);
    expect(await fetch(inbox.url, { method: "DELETE" }).then((r) => r.status)).toBe(405);
  });

  it("with a token, shows nothing before sign-in and rotates the session at sign-in", async () => {
    const token = "0123456789abcdef-token";
    const { inbox, request } = await serve({ token });
    const { cookie, csrf, res } = await session(inbox.url);
    expect(res.status).toBe(200);
    const origin = inbox.url.slice(0, -1);
    const page = await (await fetch(inbox.url, { headers: { cookie } })).text();
    expect(page).toContain("Sign in");
    expect(page).not.toContain(request.approvalId);
    const events = await fetch(`${inbox.url}events`, { headers: { cookie } });
    expect(events.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const wrong = await fetch(`${inbox.url}login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin },
      body: `csrf=${encodeURIComponent(csrf)}&token=nope`,
    });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${inbox.url}login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin },
      body: `csrf=${encodeURIComponent(csrf)}&token=${token}`,
      redirect: "manual",
    });
    expect(right.status).toBe(303);
    const signedIn = (right.headers.get("set-cookie") ?? "").split(";")[0] as string;
    expect(signedIn).not.toBe(cookie);
    expect(await (await fetch(inbox.url, { headers: { cookie: signedIn } })).text()).toContain(
      request.approvalId,
    );
    // The session from before sign-in is gone.
    expect(await (await fetch(inbox.url, { headers: { cookie } })).text()).not.toContain(request.approvalId);
  });

  it("knows which addresses are this machine only", () => {
    expect(["127.0.0.1", "127.1.2.3", "::1", "localhost"].every(isLoopback)).toBe(true);
    expect(["0.0.0.0", "::", "192.168.1.2", "localhost.example", "127.0.0.1.nip.io"].some(isLoopback)).toBe(
      false,
    );
  });
});

describe("the inbox when things go wrong", () => {
  it("answers a malformed id with 404 and an unreachable store with 503, recording nothing", async () => {
    const { inbox, store, request } = await serve();
    const { cookie, csrf } = await session(inbox.url);
    const origin = inbox.url.slice(0, -1);
    const post = (id: string) =>
      fetch(`${inbox.url}approvals/${id}/decision`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin },
        body: `decision=approve&approver=ana&csrf=${encodeURIComponent(csrf)}`,
      });
    expect((await post("%E0%A4%A")).status).toBe(404);
    await store.close();
    const down = await post(request.approvalId);
    expect(down.status).toBe(503);
    expect(await down.text()).toContain("Nothing was recorded: memory: the store is closed");
  });
});

describe("sign-in keeps nothing on the server before it succeeds", () => {
  it("anonymous requests make no session, so even ten thousand of them cannot push a signed-in approver out", async () => {
    const token = "correct-horse-battery-staple-42";
    const { inbox, request } = await serve({ token });
    // Sign in as a browser does: the form's CSRF token goes with the sign-in cookie it came with.
    const form = await fetch(inbox.url);
    const loginCookie = (form.headers.get("set-cookie") ?? "").split(";")[0] as string;
    expect(loginCookie).toMatch(/^toolgate_inbox_login=[\w-]{43}$/);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] as string;
    const signIn = await fetch(`${inbox.url}login`, {
      method: "POST",
      redirect: "manual",
      headers: {
        cookie: loginCookie,
        origin: inbox.url.replace(/\/$/, ""),
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ csrf, token }).toString(),
    });
    expect(signIn.status).toBe(303);
    const sessionCookie = (signIn.headers.getSetCookie?.() ?? [])
      .map((c) => c.split(";")[0] as string)
      .find((c) => c.startsWith("toolgate_inbox="));
    expect(sessionCookie).toMatch(/^toolgate_inbox=[\w-]{43}$/);

    // A flood of anonymous page loads: each gets a sign-in form, and none a session.
    for (let batch = 0; batch < 100; batch++) {
      const pages = await Promise.all(Array.from({ length: 101 }, () => fetch(inbox.url)));
      for (const page of pages) {
        expect(page.headers.get("set-cookie") ?? "").not.toMatch(/toolgate_inbox=/);
        await page.text();
      }
    }
    const still = await fetch(inbox.url, { headers: { cookie: sessionCookie as string } });
    expect(await still.text()).toContain(request.approvalId);
  });

  it("a sign-in without the form's cookie, or from another site, is refused before the token is read", async () => {
    const token = "correct-horse-battery-staple-42";
    const { inbox } = await serve({ token });
    const form = await fetch(inbox.url);
    const loginCookie = (form.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] as string;
    const post = (headers: Record<string, string>) =>
      fetch(`${inbox.url}login`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ csrf, token }).toString(),
      });
    const origin = inbox.url.replace(/\/$/, "");
    expect((await post({ origin })).status).toBe(403);
    expect((await post({ origin: "http://evil.example", cookie: loginCookie })).status).toBe(403);
    expect((await post({ origin, cookie: "toolgate_inbox_login=AAAA" })).status).toBe(403);
    expect((await post({ origin, cookie: loginCookie })).status).toBe(303);
  });
});
