/**
 * HTML of the approval inbox. Every value is interpolated through the `html` tagged template, which escapes
 * it, unless it is itself a `Html` built the same way: no text from the store, the model or a person reaches
 * the page as markup. Text is also passed through `escapeControl`, so that bidirectional and control characters
 * show as `\uXXXX` instead of reordering or hiding what the approver reads.
 */
import { escapeControl } from "../diagnostics/escape-control.js";
import type { StoredApproval } from "../runtime/approval-store.js";
import { redactArguments } from "../runtime/controller.js";
import { formatDuration } from "../runtime/grants.js";
import type { StatementSource } from "../runtime/types.js";

/** Markup built by `html` (safe to insert as it is). */
export class Html {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
}

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return escapeControl(text, { keepNewlines: true }).replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

/** The tagged template: literal parts are markup, every interpolated value is escaped. */
export function html(strings: TemplateStringsArray, ...values: readonly Value[]): Html {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) out += render(values[i] as Value) + (strings[i + 1] as string);
  return new Html(out);
}

/** What the page shows about one deciding statement, when the configuration is known. */
export interface StatementInfo {
  readonly action: string;
  readonly reason: string;
  readonly source?: StatementSource;
}

/** What the inbox renders with. */
export interface RenderContext {
  readonly csrf: string;
  /** Set when a reverse proxy names the person (the approver field is then fixed). */
  readonly identity?: string;
  /** The approver name used last in this browser session. */
  readonly approver?: string;
  readonly now: number;
  /** Longest grant in milliseconds; 0 when remembering is off or the store cannot keep grants. */
  readonly maxGrantMs: number;
  readonly sessionKey: string;
  readonly redact: ReadonlyMap<string, "all" | readonly string[]>;
  readonly statements: ReadonlyMap<string, StatementInfo>;
}

const json = (value: unknown): string => JSON.stringify(value, null, 2) ?? "undefined";

function until(now: number, at: number): string {
  const left = at - now;
  return left <= 0 ? "expired" : `in ${formatDuration(Math.max(left, 60_000))}`;
}

/** One pending request, with its decision form. */
export function renderApproval(entry: StoredApproval, ctx: RenderContext): Html {
  const r = entry.request;
  const fields = ctx.redact.get(r.call.toolName);
  const args = fields === "all" ? "[redacted]" : json(redactArguments(r.call.arguments, fields));
  const session = r.context?.[ctx.sessionKey];
  const hasSession = typeof session === "string" && session !== "";
  const maxHours = Math.floor((ctx.maxGrantMs / 3_600_000) * 100) / 100;
  const statements = r.ruleIds.map((id) => {
    const info = ctx.statements.get(id);
    return html`<li><code>${id}</code>${
      info === undefined
        ? ""
        : html` (${info.action}${info.source === undefined ? "" : html`, ${info.source.file}:${info.source.line}`}): ${info.reason}`
    }</li>`;
  });
  const action = `/approvals/${encodeURIComponent(r.approvalId)}/decision`;
  return html`<article class="approval" data-id="${r.approvalId}">
<header><h2><code class="tool">${r.call.toolName}</code></h2>
<span class="expiry" title="${new Date(r.expiresAt).toISOString()}">expires ${until(ctx.now, r.expiresAt)}</span></header>
<p class="reason">${r.reason}</p>
<dl>
<dt>Arguments</dt><dd><pre class="arguments">${args}</pre></dd>
${r.context === undefined ? "" : html`<dt>Context</dt><dd><pre class="context">${json(r.context)}</pre></dd>`}
<dt>Statements</dt><dd><ul class="statements">${statements}</ul></dd>
<dt>Request</dt><dd><code>${r.approvalId}</code> for call <code>${r.call.callId}</code>, asked ${new Date(r.createdAt).toISOString()}, policy <code>${r.policyFingerprint}</code></dd>
</dl>
<form method="post" action="${action}" class="decide">
<input type="hidden" name="csrf" value="${ctx.csrf}">
${
  ctx.identity === undefined
    ? html`<label>Approver <input name="approver" required maxlength="100" autocomplete="username" value="${ctx.approver ?? ""}"></label>`
    : html`<p class="identity">Deciding as <strong>${ctx.identity}</strong></p>`
}
<label>Reason <input name="reason" maxlength="1000" placeholder="required to reject"></label>
${
  ctx.maxGrantMs > 0
    ? html`<fieldset class="remember"><legend>Remember this approval</legend>
<label><input type="radio" name="remember" value="" checked> only this call</label>
<label><input type="radio" name="remember" value="arguments"> the same tool with the same arguments</label>
${hasSession ? html`<label><input type="radio" name="remember" value="session"> the same tool with the same arguments in session <code>${session as string}</code></label>` : ""}
<label>for <input type="number" name="hours" min="0.1" max="${maxHours}" step="0.1" value="${Math.min(1, maxHours)}"> hours (at most ${maxHours})</label>
</fieldset>`
    : ""
}
<div class="buttons">
<button type="submit" name="decision" value="approve" class="approve">Approve</button>
<button type="submit" name="decision" value="reject" class="reject">Reject</button>
</div>
</form>
</article>`;
}

/** The list of pending requests (also served alone, for live updates). */
export function renderPending(entries: readonly StoredApproval[], ctx: RenderContext): Html {
  if (entries.length === 0) return html`<p class="empty">No approval requests are waiting.</p>`;
  return html`${entries.map((e) => renderApproval(e, ctx))}`;
}

/** A whole page. */
export function page(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="/assets/inbox.css">
<script src="/assets/inbox.js" defer></script>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`.toString();
}

/** The inbox page. */
export function inboxPage(entries: readonly StoredApproval[], ctx: RenderContext, store: string): string {
  return page(
    "toolgate approvals",
    html`<h1>Pending approvals</h1>
<p class="store">Store <code>${store}</code>. <span id="live" aria-live="polite"></span></p>
<section id="pending">${renderPending(entries, ctx)}</section>
${ctx.identity === undefined ? html`<form method="post" action="/logout" class="logout"><input type="hidden" name="csrf" value="${ctx.csrf}"><button type="submit">Sign out</button></form>` : ""}`,
  );
}

/** The result of a decision, or an error, with a way back. */
export function messagePage(title: string, message: Html | string, kind: "ok" | "error"): string {
  return page(
    title,
    html`<h1>${title}</h1>
<p class="message ${kind}" id="message">${message}</p>
<p><a href="/">Back to the inbox</a></p>`,
  );
}

/** The sign-in page (a token is configured). */
export function loginPage(csrf: string, failed: boolean): string {
  return page(
    "toolgate approvals: sign in",
    html`<h1>Sign in</h1>
${failed ? html`<p class="message error" id="message">That token is not right.</p>` : ""}
<form method="post" action="/login">
<input type="hidden" name="csrf" value="${csrf}">
<label>Inbox token <input type="password" name="token" required autocomplete="current-password"></label>
<button type="submit">Sign in</button>
</form>`,
  );
}

/** The script: live updates over Server-Sent Events (polling when they fail). No markup is built from text. */
export const INBOX_JS = `"use strict";
(function () {
  var section = document.getElementById("pending");
  var live = document.getElementById("live");
  if (!section) return;
  var busy = false;
  function refresh() {
    if (busy) return;
    busy = true;
    fetch("/fragments/pending", { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (res) { if (!res.ok) throw new Error(String(res.status)); return res.text(); })
      .then(function (text) {
        var doc = new DOMParser().parseFromString("<section>" + text + "</section>", "text/html");
        var fresh = doc.body.firstElementChild;
        var seen = {};
        var items = fresh.querySelectorAll("article[data-id]");
        for (var i = 0; i < items.length; i++) {
          var id = items[i].getAttribute("data-id");
          seen[id] = true;
          if (!section.querySelector('article[data-id="' + CSS.escape(id) + '"]')) {
            section.appendChild(document.importNode(items[i], true));
          }
        }
        var mine = section.querySelectorAll("article[data-id]");
        for (var j = 0; j < mine.length; j++) {
          var article = mine[j];
          if (!seen[article.getAttribute("data-id")] && !article.classList.contains("gone")) {
            article.classList.add("gone");
            var note = document.createElement("p");
            note.className = "gone-note";
            note.textContent = "No longer pending: decided elsewhere or expired.";
            article.insertBefore(note, article.firstChild);
          }
        }
        var empty = section.querySelector("p.empty");
        if (empty && items.length > 0) empty.remove();
        if (!empty && items.length === 0 && section.querySelectorAll("article:not(.gone)").length === 0) {
          var p = document.createElement("p");
          p.className = "empty";
          p.textContent = "No approval requests are waiting.";
          section.appendChild(p);
        }
        if (live) live.textContent = "Updated " + new Date().toLocaleTimeString() + ".";
      })
      .catch(function () { if (live) live.textContent = "Updates paused; reload the page."; })
      .then(function () { busy = false; });
  }
  if (window.EventSource) {
    var source = new EventSource("/events");
    source.addEventListener("pending", refresh);
    source.onerror = function () { if (live) live.textContent = "Reconnecting..."; };
  } else {
    setInterval(refresh, 5000);
  }
})();
`;

/** The style sheet. */
export const INBOX_CSS = `body{font:15px/1.45 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem}
article.approval{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:1rem;margin:0 0 1rem}
article.gone{opacity:.55}
article header{display:flex;justify-content:space-between;align-items:baseline}
h2{font-size:1.1rem;margin:0}
pre{background:#f0f2f4;padding:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-all;margin:0}
dt{font-weight:600;margin-top:.5rem}
dd{margin:0}
form.decide label{display:block;margin:.35rem 0}
fieldset{border:1px solid #d0d7de;border-radius:4px}
.buttons{display:flex;gap:.5rem;margin-top:.5rem}
button{font:inherit;padding:.35rem .9rem;border-radius:4px;border:1px solid #8c959f;background:#fff;cursor:pointer}
button.approve{background:#1f883d;color:#fff;border-color:#1a7f37}
button.reject{background:#cf222e;color:#fff;border-color:#a40e26}
.message.error{color:#a40e26}
.message.ok{color:#1a7f37}
.expiry,.store{color:#57606a}
`;
