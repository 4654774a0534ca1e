/**
 * When a call waits for a person, someone hears of it: the `onApprovalRequested` hook and the built-in
 * notifiers (a signed webhook, a command). Delivery never delays or changes the decision; failures go to
 * `onNotificationError`.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
  type ApprovalNotice,
  createController,
  loadPolicy,
  type NotificationError,
  type PolicyBundle,
  ToolgateError,
  verifyWebhookSignature,
  webhookNotifier,
} from "toolgate";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, writeTree } from "../cli/cli-helpers.js";

const SECRET = "s3cret-for-the-webhook-receiver-0123456789";

const TOOLS = [
  "tools:",
  "  - name: deploy",
  "    description: Deploy a service.",
  "    input_schema:",
  "      type: object",
  "      properties: { service: { type: string }, token: { type: string } }",
  "      required: [service]",
  "      additionalProperties: false",
  "",
].join("\n");

const POLICY = ["version: 1", "ask: [deploy]", "reasons:", "  deploy: deploys reach customers", ""].join(
  "\n",
);

async function bundleWith(config: string, files: Record<string, string> = {}): Promise<PolicyBundle> {
  const dir = writeTree({
    "toolgate.config.yaml": `tools: [tools.yaml]\npolicy: policy.yaml\n${config}`,
    "tools.yaml": TOOLS,
    "policy.yaml": POLICY,
    ...files,
  });
  return loadPolicy({ config: join(dir, "toolgate.config.yaml") });
}

interface Received {
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
  readonly at: number;
}

/** A real HTTP receiver on 127.0.0.1; `answer` decides each response (or leaves it hanging). */
async function receiver(answer: (n: number, res: ServerResponse) => void) {
  const received: Received[] = [];
  const waiting: ((r: Received) => void)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(r);
      waiting.shift()?.(r);
      answer(received.length, res);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return {
    url: `http://127.0.0.1:${port}/hooks/toolgate`,
    received,
    next: (): Promise<Received> =>
      new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error("no request within 5 s")), 5000);
        waiting.push((r) => {
          clearTimeout(timer);
          done(r);
        });
      }),
  };
}

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
  delete process.env.TOOLGATE_TEST_WEBHOOK_SECRET;
});

const deploy = { callId: "call_7", toolName: "deploy", arguments: { service: "api", token: "tok-123" } };

describe("webhook notifier configured in YAML", () => {
  it("POSTs a verifiable signed notice within a second of the ask, with what an approver needs", async () => {
    const hook = await receiver((_n, res) => res.end("ok"));
    process.env.TOOLGATE_TEST_WEBHOOK_SECRET = SECRET;
    const bundle = await bundleWith(
      [
        "audit:",
        "  sink: memory",
        "  redact: { deploy: [token] }",
        "notify:",
        "  - kind: webhook",
        `    url: ${hook.url}`,
        "    secret_env: TOOLGATE_TEST_WEBHOOK_SECRET",
        "",
      ].join("\n"),
    );
    const controller = createController({ bundle, handlers: { deploy: () => "deployed" } });
    const arriving = hook.next();
    const asked = Date.now();
    const request = await controller.handle(deploy, { environment: "production" });
    expect(request).toMatchObject({ kind: "approval-request" });
    const got = await arriving;
    expect(got.at - asked).toBeLessThan(1000);

    expect(got.headers["content-type"]).toBe("application/json");
    const verification = verifyWebhookSignature({
      secret: SECRET,
      body: got.body,
      signature: got.headers["x-toolgate-signature"] as string,
      timestamp: got.headers["x-toolgate-timestamp"] as string,
    });
    expect(verification).toEqual({ ok: true });
    const approvalId = (request as { approvalId: string }).approvalId;
    expect(got.headers["x-toolgate-delivery"]).toBe(approvalId);

    const notice = JSON.parse(got.body) as ApprovalNotice;
    const { expiresAt, createdAt } = request as { expiresAt: number; createdAt: number };
    expect(notice).toEqual({
      kind: "approval-requested",
      approvalId,
      callId: "call_7",
      toolName: "deploy",
      arguments: { service: "api", token: "[redacted]" },
      context: { environment: "production" },
      reason: "deploys reach customers",
      ruleIds: ["ask:deploy"],
      statements: [
        {
          id: "ask:deploy",
          kind: "set",
          action: "ask",
          reason: "deploys reach customers",
          source: expect.objectContaining({ line: 2 }),
        },
      ],
      policyFingerprint: bundle.fingerprint,
      mode: "enforce",
      createdAt: new Date(createdAt).toISOString(),
      expiresAt: new Date(expiresAt).toISOString(),
    });

    // A tampered body, another secret, or a replay later than the tolerance does not verify.
    const base = {
      secret: SECRET,
      body: got.body,
      signature: got.headers["x-toolgate-signature"] as string,
      timestamp: got.headers["x-toolgate-timestamp"] as string,
    };
    expect(verifyWebhookSignature({ ...base, body: got.body.replace("api", "apx") }).ok).toBe(false);
    expect(verifyWebhookSignature({ ...base, secret: `${SECRET}x` }).ok).toBe(false);
    expect(verifyWebhookSignature({ ...base, now: Date.now() + 10 * 60 * 1000 })).toEqual({
      ok: false,
      reason: "the timestamp is outside the tolerance (a replay, or a clock far off)",
    });

    // A secret anyone could guess, or a tolerance that accepts every replay, is refused outright.
    for (const secret of ["", "short", Buffer.alloc(15)]) {
      expect(() => verifyWebhookSignature({ ...base, secret })).toThrow(/at least 16 bytes/);
    }
    for (const toleranceSeconds of [Number.POSITIVE_INFINITY, Number.NaN, -1]) {
      expect(() => verifyWebhookSignature({ ...base, toleranceSeconds })).toThrow(/finite number of seconds/);
    }
    expect(
      verifyWebhookSignature({ ...base, toleranceSeconds: 0, now: Number(base.timestamp) * 1000 }),
    ).toEqual({
      ok: true,
    });
  });

  it("a secret named in the config that is not set stops createController with what to do", async () => {
    const bundle = await bundleWith(
      "notify:\n  - kind: webhook\n    url: http://127.0.0.1:9/x\n    secret_env: TOOLGATE_TEST_WEBHOOK_SECRET\n",
    );
    expect(() => createController({ bundle, handlers: { deploy: () => "" } })).toThrow(ToolgateError);
    expect(() => createController({ bundle, handlers: { deploy: () => "" } })).toThrow(
      /TOOLGATE_TEST_WEBHOOK_SECRET that should hold the webhook secret \(notify\) is not set/,
    );
  });

  it("reads the secret from a private file, and refuses one others can read", async () => {
    const hook = await receiver((_n, res) => res.end());
    const config = `notify:\n  - kind: webhook\n    url: ${hook.url}\n    secret_file: webhook.secret\n`;
    const bundle = await bundleWith(config, { "webhook.secret": `${SECRET}\n` });
    const dir = bundle.configDir;
    const { chmodSync } = await import("node:fs");
    chmodSync(join(dir, "webhook.secret"), 0o644);
    expect(() => createController({ bundle, handlers: { deploy: () => "" } })).toThrow(
      /can be read by other users \(mode 644\); run `chmod 600/,
    );
    chmodSync(join(dir, "webhook.secret"), 0o600);
    const controller = createController({ bundle, handlers: { deploy: () => "" } });
    const arriving = hook.next();
    await controller.handle(deploy);
    const got = await arriving;
    expect(
      verifyWebhookSignature({
        secret: SECRET,
        body: got.body,
        signature: got.headers["x-toolgate-signature"] as string,
        timestamp: got.headers["x-toolgate-timestamp"] as string,
      }),
    ).toEqual({ ok: true });
  });
});

describe("notify in the configuration: mistakes are lint findings at their line", () => {
  async function lint(notify: string): Promise<string> {
    const dir = writeTree({
      "toolgate.config.yaml": `tools: [tools.yaml]\npolicy: policy.yaml\nnotify:\n${notify}`,
      "tools.yaml": TOOLS,
      "policy.yaml": POLICY,
    });
    const run = await runCli(["lint", "--config", join(dir, "toolgate.config.yaml"), "--format", "json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      diagnostics: { line: number; message: string; code: string }[];
    };
    return report.diagnostics.map((d) => `${d.line} ${d.code} ${d.message}`).join("\n");
  }

  it("both secrets, no secret, an unknown kind, a shell string for a command", async () => {
    expect(
      await lint("  - kind: webhook\n    url: https://h.example/x\n    secret_env: A\n    secret_file: b\n"),
    ).toBe("7 config-schema a webhook takes its secret from secret_env or secret_file, not both; keep one");
    expect(await lint("  - kind: webhook\n    url: https://h.example/x\n")).toBe(
      [
        '4 config-schema "notify/0" is missing the required key "secret_env"',
        '4 config-schema "notify/0" is missing the required key "secret_file"',
      ].join("\n"),
    );
    expect(await lint("  - kind: pager\n")).toBe(
      '4 config-schema "notify/0/kind" must be one of "webhook", "command"',
    );
    expect(await lint("  - kind: command\n    command: ./page.sh --all\n")).toBe(
      '5 config-schema "notify/0/command" must be a list, found string "./page.sh --all"',
    );
  });
});

describe("webhook delivery", () => {
  it("retries after a 500 and stops at the first success", async () => {
    const hook = await receiver((n, res) => {
      res.statusCode = n === 1 ? 500 : 204;
      res.end();
    });
    const failures: NotificationError[] = [];
    const bundle = await bundleWith("");
    const controller = createController({
      bundle,
      handlers: { deploy: () => "" },
      onApprovalRequested: webhookNotifier({ url: hook.url, secret: SECRET, initialBackoffMs: 20 }),
      onNotificationError: (error) => failures.push(error),
    });
    const first = hook.next();
    const second = first.then(() => hook.next());
    await controller.handle(deploy);
    const [a, b] = [await first, await second];
    expect(a.body).toBe(b.body);
    expect(b.headers["x-toolgate-delivery"]).toBe(a.headers["x-toolgate-delivery"]);
    for (const r of [a, b]) {
      const ok = verifyWebhookSignature({
        secret: SECRET,
        body: r.body,
        signature: r.headers["x-toolgate-signature"] as string,
        timestamp: r.headers["x-toolgate-timestamp"] as string,
      });
      expect(ok).toEqual({ ok: true });
    }
    await new Promise((done) => setTimeout(done, 200));
    expect(hook.received).toHaveLength(2);
    expect(failures).toEqual([]);
  });

  it("gives up after maxAttempts, and reports it without throwing from handle", async () => {
    const hook = await receiver((_n, res) => {
      res.statusCode = 503;
      res.end();
    });
    const failures: NotificationError[] = [];
    const reported = new Promise<void>((done) => {
      const bundle = bundleWith("");
      void bundle.then(async (b) => {
        const controller = createController({
          bundle: b,
          handlers: { deploy: () => "" },
          onApprovalRequested: webhookNotifier({
            url: hook.url,
            secret: SECRET,
            maxAttempts: 3,
            initialBackoffMs: 10,
          }),
          onNotificationError: (error) => {
            failures.push(error);
            done();
          },
        });
        expect(await controller.handle(deploy)).toMatchObject({ kind: "approval-request" });
      });
    });
    await reported;
    expect(hook.received).toHaveLength(3);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.code).toBe("notification-failed");
    expect(failures[0]?.message).toMatch(
      /^webhook http:\/\/127\.0\.0\.1:\d+\/hooks\/toolgate: the notice was not delivered \(the receiver answered 503\); attempts: up to 3 \(approval apr_/,
    );
  });

  it("a 4xx answer other than 408 and 429 is not retried", async () => {
    const hook = await receiver((_n, res) => {
      res.statusCode = 401;
      res.end();
    });
    const notify = webhookNotifier({ url: hook.url, secret: SECRET, initialBackoffMs: 10 });
    await expect(notify({ approvalId: "apr_x" } as ApprovalNotice)).rejects.toThrow(/answered 401/);
    expect(hook.received).toHaveLength(1);
  });

  it("a receiver that never answers does not delay the decision", async () => {
    const hook = await receiver(() => {
      // Never answers.
    });
    const failures: NotificationError[] = [];
    const bundle = await bundleWith("");
    const controller = createController({
      bundle,
      handlers: { deploy: () => "" },
      onApprovalRequested: webhookNotifier({
        url: hook.url,
        secret: SECRET,
        timeoutMs: 1500,
        maxAttempts: 1,
      }),
      onNotificationError: (error) => failures.push(error),
    });
    const arriving = hook.next();
    const request = await controller.handle(deploy);
    expect(request).toMatchObject({ kind: "approval-request" });
    await arriving;
    // The decision came back, and the receiver got the request, while the delivery is still waiting for an
    // answer: handle did not wait for it.
    expect(failures).toEqual([]);
    await expect.poll(() => failures.length, { timeout: 5000 }).toBe(1);
    expect(failures[0]?.message).toContain("no answer within 1500 ms");
  });

  it("refuses a short secret and a URL that is not http(s)", () => {
    expect(() => webhookNotifier({ url: "http://127.0.0.1/x", secret: "short" })).toThrow(
      /the webhook secret has 5 bytes; use at least 16/,
    );
    expect(() => webhookNotifier({ url: "file:///etc/passwd", secret: SECRET })).toThrow(
      /must start with http:\/\/ or https:\/\//,
    );
  });
});

describe("command notifier and the hook", () => {
  it("the configured command gets the notice as JSON on stdin, with no shell", async () => {
    const script = [
      'import { writeFileSync } from "node:fs";',
      "let input = '';",
      "process.stdin.setEncoding('utf8');",
      "process.stdin.on('data', (c) => { input += c; });",
      "process.stdin.on('end', () => writeFileSync(process.argv[2], JSON.stringify({ input, argv: process.argv.slice(2) })));",
      "",
    ].join("\n");
    const bundle = await bundleWith(
      [
        "notify:",
        "  - kind: command",
        `    command: [${JSON.stringify(process.execPath)}, ./notify.mjs, out.json, "$HOME;echo"]`,
        "",
      ].join("\n"),
      { "notify.mjs": script },
    );
    const failures: NotificationError[] = [];
    const controller = createController({
      bundle,
      handlers: { deploy: () => "" },
      onNotificationError: (error) => failures.push(error),
    });
    const request = await controller.handle(deploy);
    const out = join(bundle.configDir, "out.json");
    const { existsSync, readFileSync } = await import("node:fs");
    await expect.poll(() => existsSync(out), { timeout: 5000 }).toBe(true);
    await expect.poll(() => readFileSync(out, "utf8").length > 0, { timeout: 2000 }).toBe(true);
    const written = JSON.parse(readFileSync(out, "utf8")) as { input: string; argv: string[] };
    // No shell: "$HOME;echo" reaches the program as it is.
    expect(written.argv).toEqual(["out.json", "$HOME;echo"]);
    expect(written.input.endsWith("\n")).toBe(true);
    const notice = JSON.parse(written.input) as ApprovalNotice;
    expect(notice).toMatchObject({
      kind: "approval-requested",
      approvalId: (request as { approvalId: string }).approvalId,
      toolName: "deploy",
      arguments: { service: "api", token: "tok-123" },
      reason: "deploys reach customers",
    });
    expect(failures).toEqual([]);
  });

  it("a command that runs too long is stopped and reported; one that fails is reported with its stderr", async () => {
    const bundle = await bundleWith(
      [
        "notify:",
        "  - kind: command",
        `    command: [${JSON.stringify(process.execPath)}, -e, "setTimeout(() => {}, 60000)"]`,
        "    timeout_ms: 200",
        "  - kind: command",
        `    command: [${JSON.stringify(process.execPath)}, -e, "console.error('pager down'); process.exit(3)"]`,
        "",
      ].join("\n"),
    );
    const failures: NotificationError[] = [];
    const controller = createController({
      bundle,
      handlers: { deploy: () => "" },
      onNotificationError: (error) => failures.push(error),
    });
    await controller.handle(deploy);
    // handle returned before either command ended.
    expect(failures).toEqual([]);
    await expect.poll(() => failures.length, { timeout: 5000 }).toBe(2);
    const messages = failures.map((f) => f.message).sort();
    expect(messages[0]).toMatch(
      /^command .*node.*: did not finish within 200 ms and was stopped \(approval apr_/,
    );
    expect(messages[1]).toMatch(
      /^command .*node.*: exited with code 3; it wrote: pager down \(approval apr_/,
    );
  });

  it("a hook that throws, or rejects, changes nothing about the decision", async () => {
    const bundle = await bundleWith("");
    const failures: NotificationError[] = [];
    const throwing = createController({
      bundle,
      handlers: { deploy: () => "" },
      onApprovalRequested: () => {
        throw new Error("hook broke");
      },
      onNotificationError: (error) => failures.push(error),
    });
    expect(await throwing.handle(deploy)).toMatchObject({ kind: "approval-request" });
    const rejecting = createController({
      bundle,
      handlers: { deploy: () => "" },
      onApprovalRequested: async () => Promise.reject(new Error("hook rejected")),
      onNotificationError: (error) => failures.push(error),
    });
    expect(await rejecting.handle(deploy)).toMatchObject({ kind: "approval-request" });
    await expect.poll(() => failures.length).toBe(2);
    expect(failures.map((f) => [f.notifier, f.message.replace(/apr_[\w-]+/, "apr_…")])).toEqual([
      ["onApprovalRequested", "onApprovalRequested: Error: hook broke (approval apr_…)"],
      ["onApprovalRequested", "onApprovalRequested: Error: hook rejected (approval apr_…)"],
    ]);
  });

  it("without onNotificationError, a failure becomes a process warning", async () => {
    const bundle = await bundleWith("");
    const warned = new Promise<Error>((done) => process.once("warning", done));
    const controller = createController({
      bundle,
      handlers: { deploy: () => "" },
      onApprovalRequested: () => {
        throw new Error("nobody listens");
      },
    });
    await controller.handle(deploy);
    const warning = await warned;
    expect(warning.name).toBe("ToolgateWarning");
    expect(warning.message).toMatch(/^onApprovalRequested: Error: nobody listens/);
  });

  it("nothing is notified in observe or ci mode, where nothing waits for a person", async () => {
    const notices: ApprovalNotice[] = [];
    for (const mode of ["observe", "ci"] as const) {
      const bundle = await bundleWith("");
      const controller = createController({
        bundle,
        handlers: { deploy: () => "" },
        mode,
        onApprovalRequested: (n) => {
          notices.push(n);
        },
      });
      await controller.handle(deploy);
    }
    await new Promise((done) => setTimeout(done, 50));
    expect(notices).toEqual([]);
  });
});
