/**
 * The approval inbox: a small web page over an approval store that lists pending requests and records a
 * person's approve/reject (optionally remembered as a grant). Plain `node:http`, server-rendered HTML and one
 * small script for live updates (Server-Sent Events).
 *
 * Security model:
 * - It listens on 127.0.0.1 by default, and refuses any other address unless a token or a trusted
 *   reverse-proxy header is configured. On a loopback address the Host header must name it (DNS rebinding).
 * - With a token, a browser signs in once (the token is compared in constant time) and gets a session cookie
 *   (HttpOnly, SameSite=Strict). With a trusted header, the proxy names the person on every request; requests
 *   without it are refused and the name is the approver (the form cannot change it).
 * - Every POST needs the session cookie, the session's CSRF token in the form, and an Origin (or
 *   Sec-Fetch-Site) that is this site: a page elsewhere can neither read nor submit a decision.
 * - Responses carry a strict Content-Security-Policy (no inline script or style), and every value on a page
 *   is escaped.
 * - Decisions go through the store's atomic compare-and-set: of two approvers, exactly one is recorded; the
 *   other is told it was already decided. The store records who decided, and the application's controller
 *   writes it to the audit log when it takes the decision.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { escapeControl } from "../diagnostics/escape-control.js";
import type { ApprovalStore, StoredApproval } from "../runtime/approval-store.js";
import { ToolgateError } from "../runtime/errors.js";
import { describeGrantScope, formatDuration, hasGrants, type RememberScope } from "../runtime/grants.js";
import { decideApproval, type GrantSettings } from "./decide.js";
import {
  html,
  INBOX_CSS,
  INBOX_JS,
  inboxPage,
  loginPage,
  messagePage,
  type RenderContext,
  renderPending,
  type StatementInfo,
} from "./html.js";

/** Options of `startInbox`. */
export interface InboxOptions {
  readonly store: ApprovalStore;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default 7807; 0 picks a free port. */
  readonly port?: number;
  /** The sign-in token (at least 16 characters). */
  readonly token?: string;
  /** A header a reverse proxy sets to the signed-in person's name (such as `X-Forwarded-User`). */
  readonly trustedHeader?: string;
  /** How grants may be given. */
  readonly grants: GrantSettings;
  /** Per tool, the argument fields shown as `[redacted]` (the configuration's `audit.redact`). */
  readonly redact?: ReadonlyMap<string, "all" | readonly string[]>;
  /** The policy's statements by id, to show where each deciding statement is written. */
  readonly statements?: ReadonlyMap<string, StatementInfo>;
  /** How often the store is read for live updates, in milliseconds (default 1000). */
  readonly pollMs?: number;
  /** Where each decision is logged, one line each (default: nowhere). */
  readonly log?: (line: string) => void;
  /** Clock, for tests. */
  readonly now?: () => number;
}

/** The running inbox. */
export interface Inbox {
  /** `http://HOST:PORT/`, with the port actually bound. */
  readonly url: string;
  close(): Promise<void>;
}

/** Why the inbox will not start. */
export class InboxConfigError extends ToolgateError {
  constructor(message: string) {
    super("inbox-config", message);
  }
}

const DEFAULT_PORT = 7807;
const MAX_BODY_BYTES = 16 * 1024;
const MAX_SESSIONS = 10_000;
const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
const COOKIE = "toolgate_inbox";
/** The sign-in form's cookie: a random value whose HMAC is the form's CSRF token (no server-side state). */
const LOGIN_COOKIE = "toolgate_inbox_login";
const MIN_TOKEN_LENGTH = 16;

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

import { isLoopback, isLoopbackHostHeader } from "./loopback.js";

export { isLoopback };

interface Session {
  readonly id: string;
  readonly csrf: string;
  readonly signedIn: boolean;
  lastSeen: number;
  approver?: string;
}

const sha256 = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();
const sameSecret = (a: string, b: string): boolean => timingSafeEqual(sha256(a), sha256(b));

/**
 * Starts the inbox.
 * @throws InboxConfigError when it would listen beyond this machine with neither a token nor a trusted header,
 *   or the token is too short; the listen error when the address cannot be bound.
 */
export async function startInbox(options: InboxOptions): Promise<Inbox> {
  const host = options.host ?? "127.0.0.1";
  const token = options.token;
  const trustedHeader = options.trustedHeader?.toLowerCase();
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    throw new InboxConfigError(
      `the inbox token is ${token.length} characters long; use at least ${MIN_TOKEN_LENGTH} random characters (for example: openssl rand -base64 32)`,
    );
  }
  if (trustedHeader !== undefined && !/^[a-z0-9-]+$/.test(trustedHeader)) {
    throw new InboxConfigError(
      `--trusted-header needs a header name such as X-Forwarded-User, got "${escapeControl(options.trustedHeader ?? "")}"`,
    );
  }
  if (!isLoopback(host) && token === undefined && trustedHeader === undefined) {
    throw new InboxConfigError(
      `refusing to serve approvals on ${host}, which other machines can reach, without authentication; set a token (--token-file FILE or TOOLGATE_INBOX_TOKEN) or put it behind a proxy that signs people in (--trusted-header NAME), or listen on 127.0.0.1`,
    );
  }
  const store = options.store;
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? 1000;
  const log = options.log ?? (() => {});
  const grantsPossible = hasGrants(store) && options.grants.maxMs > 0;
  const sessions = new Map<string, Session>();
  const streams = new Set<ServerResponse>();
  let boundPort = options.port ?? DEFAULT_PORT;

  const newSession = (signedIn: boolean): Session => {
    if (sessions.size >= MAX_SESSIONS) {
      const cutoff = now() - SESSION_IDLE_MS;
      for (const [id, s] of sessions) if (s.lastSeen < cutoff) sessions.delete(id);
      // Still full: the oldest goes (a Map keeps insertion order).
      while (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
    }
    const session: Session = {
      id: randomBytes(32).toString("base64url"),
      csrf: randomBytes(32).toString("base64url"),
      signedIn,
      lastSeen: now(),
    };
    sessions.set(session.id, session);
    return session;
  };

  /** The value of a cookie of the request, if it has one. */
  const cookieOf = (req: IncomingMessage, wanted: string): string | undefined => {
    for (const part of (req.headers.cookie ?? "").split(";")) {
      const [name, ...rest] = part.trim().split("=");
      if (name === wanted) return rest.join("=");
    }
    return undefined;
  };

  // Before sign-in nothing is kept on the server: the sign-in form's CSRF token is the HMAC of a random value
  // held in the browser's cookie, so anonymous requests cannot fill the session table or push approvers out.
  const loginKey = randomBytes(32);
  const loginCsrf = (nonce: string): string =>
    createHmac("sha256", loginKey).update(nonce, "utf8").digest("base64url");
  const loginForm = (req: IncomingMessage, res: ServerResponse, status: number, failed: boolean) => {
    // The browser keeps one sign-in value: another request of the page (a fragment) must not void the form.
    const given = cookieOf(req, LOGIN_COOKIE);
    const nonce =
      given !== undefined && /^[A-Za-z0-9_-]{43}$/.test(given)
        ? given
        : randomBytes(32).toString("base64url");
    send(res, status, loginPage(loginCsrf(nonce), failed), {
      "set-cookie": `${LOGIN_COOKIE}=${nonce}; Path=/; HttpOnly; SameSite=Strict`,
    });
  };

  const sessionOf = (req: IncomingMessage): Session | undefined => {
    const id = cookieOf(req, COOKIE);
    if (id !== undefined) {
      const session = sessions.get(id);
      if (session === undefined) return undefined;
      if (session.lastSeen < now() - SESSION_IDLE_MS) {
        sessions.delete(session.id);
        return undefined;
      }
      session.lastSeen = now();
      return session;
    }
    return undefined;
  };

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      "content-type": "text/html; charset=utf-8",
      ...headers,
    });
    res.end(body);
  };
  const setCookie = (session: Session): Record<string, string> => ({
    "set-cookie": `${COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Strict`,
  });

  /** The Host header must name this server when it listens on loopback (DNS rebinding). */
  const hostAllowed = (req: IncomingMessage): boolean =>
    !isLoopback(host) || isLoopbackHostHeader(req.headers.host, boundPort);

  /** A POST must come from a page of this site. */
  const sameOrigin = (req: IncomingMessage): boolean => {
    const origin = req.headers.origin;
    const given = req.headers.host;
    if (typeof origin === "string" && origin !== "null") {
      try {
        return given !== undefined && new URL(origin).host === given.toLowerCase();
      } catch {
        return false;
      }
    }
    return req.headers["sec-fetch-site"] === "same-origin";
  };

  const identityOf = (req: IncomingMessage): string | undefined => {
    if (trustedHeader === undefined) return undefined;
    const value = req.headers[trustedHeader];
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  };

  const renderContext = (session: Session, identity: string | undefined): RenderContext => ({
    csrf: session.csrf,
    ...(identity === undefined ? {} : { identity }),
    ...(session.approver === undefined ? {} : { approver: session.approver }),
    now: now(),
    maxGrantMs: grantsPossible ? options.grants.maxMs : 0,
    sessionKey: options.grants.sessionKey,
    redact: options.redact ?? new Map(),
    statements: options.statements ?? new Map(),
  });

  const pending = async (): Promise<readonly StoredApproval[]> => {
    const at = now();
    return (await store.list(["pending"])).filter((e) => at < e.request.expiresAt);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://inbox.invalid");
    const path = url.pathname;
    if (!hostAllowed(req)) {
      return send(
        res,
        421,
        messagePage("Wrong host", "Open this inbox at the address it listens on.", "error"),
      );
    }
    if (req.method === "GET" && path === "/assets/inbox.js") {
      return send(res, 200, INBOX_JS, { "content-type": "text/javascript; charset=utf-8" });
    }
    if (req.method === "GET" && path === "/assets/inbox.css") {
      return send(res, 200, INBOX_CSS, { "content-type": "text/css; charset=utf-8" });
    }
    const identity = identityOf(req);
    if (trustedHeader !== undefined && identity === undefined) {
      return send(
        res,
        401,
        messagePage("Not signed in", "This inbox is reached through a proxy that signs people in.", "error"),
      );
    }
    let session = sessionOf(req);
    const isPost = req.method === "POST";
    if (isPost && path === "/login" && token !== undefined) {
      // Sign-in: this site's page, the browser's sign-in cookie and the token; only then is a session made.
      const form = await readForm(req);
      if (form === undefined) {
        return send(res, 400, messagePage("Bad request", "Send the form as it is on the page.", "error"));
      }
      const nonce = cookieOf(req, LOGIN_COOKIE) ?? "";
      const csrf = form.get("csrf") ?? "";
      if (!sameOrigin(req) || nonce === "" || csrf === "" || !sameSecret(csrf, loginCsrf(nonce))) {
        return send(
          res,
          403,
          messagePage(
            "Forbidden",
            "This form is stale or came from another site; reload the inbox and try again.",
            "error",
          ),
        );
      }
      if (!sameSecret(form.get("token") ?? "", token)) {
        await new Promise((done) => setTimeout(done, 250));
        return loginForm(req, res, 401, true);
      }
      if (session !== undefined) sessions.delete(session.id);
      const signedIn = newSession(true);
      res.setHeader("set-cookie", [
        `${COOKIE}=${signedIn.id}; Path=/; HttpOnly; SameSite=Strict`,
        `${LOGIN_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
      ]);
      return send(res, 303, "", { location: "/" });
    }
    if (isPost) {
      // CSRF: this site's page, this session, this session's token.
      const form = await readForm(req);
      if (form === undefined) {
        return send(res, 400, messagePage("Bad request", "Send the form as it is on the page.", "error"));
      }
      const csrf = form.get("csrf") ?? "";
      if (!sameOrigin(req) || session === undefined || csrf === "" || !sameSecret(csrf, session.csrf)) {
        return send(
          res,
          403,
          messagePage(
            "Forbidden",
            "This form is stale or came from another site; reload the inbox and try again.",
            "error",
          ),
        );
      }
      if (token !== undefined && !session.signedIn) return loginForm(req, res, 401, false);
      if (path === "/logout") {
        sessions.delete(session.id);
        return send(res, 303, "", {
          location: "/",
          "set-cookie": `${COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
        });
      }
      const match = /^\/approvals\/([^/]+)\/decision$/.exec(path);
      if (match !== null) {
        let id: string;
        try {
          id = decodeURIComponent(match[1] as string);
        } catch {
          return send(res, 404, messagePage("Not found", "There is no such approval request.", "error"));
        }
        return decide(res, session, identity, id, form);
      }
      return send(res, 404, messagePage("Not found", "There is nothing here.", "error"));
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      return send(res, 405, messagePage("Method not allowed", "Use the inbox page.", "error"), {
        allow: "GET, POST",
      });
    }
    if (session === undefined) {
      // With a token, nothing is made before sign-in: the form's CSRF token lives in the browser.
      if (token !== undefined) return loginForm(req, res, 200, false);
      session = newSession(true);
      if (path !== "/")
        return send(
          res,
          401,
          messagePage("No session", "Open the inbox page first.", "error"),
          setCookie(session),
        );
    } else if (token !== undefined && !session.signedIn) {
      return loginForm(req, res, 200, false);
    }
    const cookie = setCookie(session);
    if (path === "/") {
      return send(res, 200, inboxPage(await pending(), renderContext(session, identity), store.name), cookie);
    }
    if (path === "/fragments/pending") {
      return send(res, 200, renderPending(await pending(), renderContext(session, identity)).toString());
    }
    if (path === "/events") return openStream(res);
    return send(res, 404, messagePage("Not found", "There is nothing here.", "error"));
  };

  const decide = async (
    res: ServerResponse,
    session: Session,
    identity: string | undefined,
    approvalId: string,
    form: URLSearchParams,
  ): Promise<void> => {
    const bad = (message: string) => send(res, 400, messagePage("Not recorded", message, "error"));
    const choice = form.get("decision");
    if (choice !== "approve" && choice !== "reject") return bad("Choose Approve or Reject.");
    const approved = choice === "approve";
    const approver = identity ?? (form.get("approver") ?? "").trim();
    if (approver === "" || approver.length > 100 || escapeControl(approver) !== approver) {
      return bad("Give your name as the approver (up to 100 characters, no control characters).");
    }
    const reason = (form.get("reason") ?? "").trim();
    if (reason.length > 1000 || escapeControl(reason) !== reason) {
      return bad("The reason is up to 1000 characters with no control characters.");
    }
    if (!approved && reason === "") return bad("A rejection needs a reason: the model is told why.");
    let remember: RememberScope | undefined;
    const kind = form.get("remember") ?? "";
    if (kind !== "") {
      if (kind !== "arguments" && kind !== "session") return bad("Unknown way to remember.");
      if (!approved) return bad("Only an approval can be remembered.");
      const hours = Number(form.get("hours") ?? "");
      if (!Number.isFinite(hours) || hours <= 0) return bad("Say for how many hours to remember it.");
      remember = { kind, durationMs: Math.round(hours * 3_600_000) };
    }
    if (identity === undefined) session.approver = approver;
    const result = await decideApproval(
      store,
      {
        approvalId,
        approved,
        approver,
        ...(reason === "" ? {} : { reason }),
        ...(remember === undefined ? {} : { remember }),
      },
      options.grants,
      now(),
    );
    const verb = approved ? "Approved" : "Rejected";
    switch (result.status) {
      case "recorded": {
        const r = result.approval.request;
        const grant = result.grant;
        log(
          escapeControl(
            `${new Date(now()).toISOString()} ${approved ? "approved" : "rejected"} ${r.approvalId} (${r.call.toolName}, call ${r.call.callId}) by ${approver}${grant === undefined ? "" : `, remembered as ${grant.grantId}`}${reason === "" ? "" : `: ${reason}`}`,
          ),
        );
        return send(
          res,
          200,
          messagePage(
            verb,
            html`${verb} <code>${r.approvalId}</code> (<code>${r.call.toolName}</code>) as ${approver}.${
              grant === undefined
                ? ""
                : html` Remembered as <code>${grant.grantId}</code> for ${formatDuration(grant.expiresAt - grant.createdAt)}: ${describeGrantScope(grant)}.`
            }`,
            "ok",
          ),
        );
      }
      case "already-decided": {
        const by = result.approval.response?.approver;
        return send(
          res,
          409,
          messagePage(
            "Already decided",
            html`<code>${approvalId}</code> was already decided (${result.approval.state}${by === undefined ? "" : html` by ${by}`}); a decision is taken once. Nothing was recorded.`,
            "error",
          ),
        );
      }
      case "expired":
        return send(
          res,
          410,
          messagePage(
            "Expired",
            html`<code>${approvalId}</code> expired; the application must ask again.`,
            "error",
          ),
        );
      case "not-found":
        return send(
          res,
          404,
          messagePage("Not found", html`There is no approval request <code>${approvalId}</code>.`, "error"),
        );
      case "cannot-remember":
        return bad(`Nothing was recorded: ${result.message}.`);
    }
  };

  // Live updates: one reader of the store for all open pages, only while a page listens.
  let signature = "";
  let timer: NodeJS.Timeout | undefined;
  const tick = async (): Promise<void> => {
    try {
      const next = (await pending()).map((e) => e.request.approvalId).join(",");
      if (next !== signature) {
        signature = next;
        for (const stream of streams) stream.write(`event: pending\ndata: ${streams.size}\n\n`);
      }
    } catch {
      // The store is unreachable for a moment: pages keep what they show; the next tick tries again.
    }
  };
  const openStream = (res: ServerResponse): void => {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      "content-type": "text/event-stream; charset=utf-8",
      connection: "keep-alive",
    });
    res.write(`retry: ${Math.max(1000, pollMs)}\n\n`);
    streams.add(res);
    res.on("close", () => {
      streams.delete(res);
      if (streams.size === 0 && timer !== undefined) {
        clearInterval(timer);
        timer = undefined;
        signature = "";
      }
    });
    if (timer === undefined) {
      void tick();
      timer = setInterval(() => void tick(), pollMs);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) {
        // Mostly an approval store that cannot be reached: nothing was recorded, and the page says why.
        send(res, 503, messagePage("Not recorded", `Nothing was recorded: ${message}`, "error"));
      } else res.end();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  boundPort = (server.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${boundPort}/`,
    close: async () => {
      if (timer !== undefined) clearInterval(timer);
      for (const stream of streams) stream.end();
      streams.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Reads an `application/x-www-form-urlencoded` body of at most 16 KiB; `undefined` for anything else. */
function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // A body over the limit is read to its end and dropped (the server's request timeout bounds how long), so
    // that the client gets an answer instead of a closed connection.
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => {
      resolve(
        size > MAX_BODY_BYTES ? undefined : new URLSearchParams(Buffer.concat(chunks).toString("utf8")),
      );
    });
    req.on("error", () => resolve(undefined));
  });
}
