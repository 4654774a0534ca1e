/**
 * The `otel` audit sink, checked with the OpenTelemetry SDK's in-memory exporters: one span per decision
 * with the GenAI semantic conventions' names where they exist, and metrics for decisions by action, approval
 * wait time and expired approvals. `import "toolgate"` does not load `@opentelemetry/api`.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { metrics, trace } from "@opentelemetry/api";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import {
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
} from "@opentelemetry/semantic-conventions/incubating";
import {
  createController,
  JsonlAuditSink,
  loadPolicy,
  MemoryAuditSink,
  OTEL_ATTRIBUTES,
  OtelAuditSink,
  PendingApprovals,
  type PolicyBundle,
} from "toolgate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, writeTree } from "../cli/cli-helpers.js";

const TOOLS = [
  "tools:",
  "  - name: write_note",
  "    description: Write a note.",
  "    input_schema:",
  "      type: object",
  "      properties: { text: { type: string }, secret: { type: string } }",
  "      required: [text]",
  "      additionalProperties: false",
  "  - name: erase_disk",
  "    description: Erase the disk.",
  "    input_schema: { type: object, additionalProperties: false }",
  "  - name: deploy",
  "    description: Deploy a service.",
  "    input_schema: { type: object, properties: { service: { type: string } }, additionalProperties: false }",
  "",
].join("\n");

const POLICY = "version: 1\nallow: [write_note]\nask: [deploy]\ndeny: [erase_disk]\n";

async function bundleWith(config: string): Promise<PolicyBundle> {
  const dir = writeTree({
    "toolgate.config.yaml": `tools: [tools.yaml]\npolicy: policy.yaml\n${config}`,
    "tools.yaml": TOOLS,
    "policy.yaml": POLICY,
  });
  return loadPolicy({ config: join(dir, "toolgate.config.yaml") });
}

const handlers = {
  write_note: ({ text }: { text: string }) => `wrote ${text}`,
  erase_disk: () => "erased",
  deploy: () => "deployed",
};

function telemetry() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    spans,
    tracerProvider,
    meterProvider,
    tracer: tracerProvider.getTracer("toolgate"),
    meter: meterProvider.getMeter("toolgate"),
    /** Every data point of a metric, after a collection. */
    async points(name: string) {
      await reader.forceFlush();
      const all =
        exporter
          .getMetrics()
          .at(-1)
          ?.scopeMetrics.flatMap((s) => s.metrics) ?? [];
      const metric = all.find((m) => m.descriptor.name === name);
      return {
        unit: metric?.descriptor.unit,
        points: (metric?.dataPoints ?? []).map((p) => ({ attributes: p.attributes, value: p.value })),
      };
    },
  };
}

const decisionSpans = (spans: InMemorySpanExporter): ReadableSpan[] => spans.getFinishedSpans();

describe("otel audit sink", () => {
  it("the GenAI attribute names are the semantic conventions' (1.45, incubating)", () => {
    expect(OTEL_ATTRIBUTES.toolName).toBe(ATTR_GEN_AI_TOOL_NAME);
    expect(OTEL_ATTRIBUTES.callId).toBe(ATTR_GEN_AI_TOOL_CALL_ID);
    expect(OTEL_ATTRIBUTES.arguments).toBe(ATTR_GEN_AI_TOOL_CALL_ARGUMENTS);
  });

  it("one span per decision, with tool, action, statements, fingerprint, approval id, mode and redacted arguments", async () => {
    const bundle = await bundleWith("audit:\n  sink: memory\n  redact: { write_note: [secret] }\n");
    const t = telemetry();
    const next = new MemoryAuditSink();
    const audit = new OtelAuditSink({ tracer: t.tracer, meter: t.meter, next });
    const controller = createController({ bundle, handlers, audit });

    await controller.handle({
      callId: "c1",
      toolName: "write_note",
      arguments: { text: "hi", secret: "pw" },
    });
    await controller.handle({ callId: "c2", toolName: "erase_disk", arguments: {} });
    const request = await controller.handle({
      callId: "c3",
      toolName: "deploy",
      arguments: { service: "api" },
    });
    const approvalId = (request as { approvalId: string }).approvalId;
    // The re-check after approval is a decision too, and carries the approval id.
    await controller.resolve({ approvalId, approved: true, approver: "oncall" });

    const spans = decisionSpans(t.spans);
    expect(spans.map((s) => [s.name, s.attributes[OTEL_ATTRIBUTES.action]])).toEqual([
      ["toolgate.decision write_note", "allow"],
      ["toolgate.decision erase_disk", "deny"],
      ["toolgate.decision deploy", "ask"],
      ["toolgate.decision deploy", "ask"],
    ]);
    expect(spans[0]?.attributes).toEqual({
      "gen_ai.tool.name": "write_note",
      "gen_ai.tool.call.id": "c1",
      "gen_ai.tool.call.arguments": '{"text":"hi","secret":"[redacted]"}',
      "toolgate.decision.action": "allow",
      "toolgate.decision.reason": "tool write_note is allowed by the policy",
      "toolgate.decision.rule_ids": ["allow:write_note"],
      "toolgate.policy.fingerprint": bundle.fingerprint,
      "toolgate.mode": "enforce",
    });
    expect(spans[1]?.attributes).toMatchObject({
      "toolgate.decision.rule_ids": ["deny:erase_disk"],
      "gen_ai.tool.call.arguments": "{}",
    });
    expect(spans[2]?.attributes).toMatchObject({
      "gen_ai.tool.call.id": "c3",
      "toolgate.approval.id": approvalId,
      "gen_ai.tool.call.arguments": '{"service":"api"}',
    });
    expect(spans[3]?.attributes).toMatchObject({ "toolgate.approval.id": approvalId });
    // The durable sink got every event first.
    expect(next.events.filter((e) => e.type === "policy.decided")).toHaveLength(4);

    const decisions = await t.points("toolgate.decisions");
    expect(decisions.points.map((p) => [p.attributes["toolgate.decision.action"], p.value]).sort()).toEqual([
      ["allow", 1],
      ["ask", 2],
      ["deny", 1],
    ]);
    const wait = await t.points("toolgate.approval.wait_time");
    expect(wait.unit).toBe("s");
    expect(wait.points).toHaveLength(1);
    expect(wait.points[0]?.attributes).toEqual({
      "toolgate.approval.outcome": "granted",
      "gen_ai.tool.name": "deploy",
    });
    expect(wait.points[0]?.value).toMatchObject({ count: 1 });
    await audit.close();
  });

  it("observe mode: the span and the counter say allow and what the policy would have done", async () => {
    const bundle = await bundleWith("mode: observe\n");
    const t = telemetry();
    const controller = createController({
      bundle,
      handlers,
      audit: new OtelAuditSink({ tracer: t.tracer, meter: t.meter }),
    });
    await controller.handle({ callId: "o1", toolName: "erase_disk", arguments: {} });
    expect(decisionSpans(t.spans)[0]?.attributes).toMatchObject({
      "toolgate.decision.action": "allow",
      "toolgate.decision.would_have": "deny",
      "toolgate.mode": "observe",
      "toolgate.policy.fingerprint": bundle.fingerprint,
    });
    const decisions = await t.points("toolgate.decisions");
    expect(decisions.points[0]?.attributes).toMatchObject({
      "toolgate.decision.action": "allow",
      "toolgate.decision.would_have": "deny",
    });
  });

  it("counts approvals used after they expired, and a rejection's wait", async () => {
    const bundle = await bundleWith("");
    const t = telemetry();
    let now = 1_000_000;
    const approvals = new PendingApprovals({ ttlMs: 1000, now: () => now });
    const audit = new OtelAuditSink({ tracer: t.tracer, meter: t.meter });
    const controller = createController({ bundle, handlers, audit, approvals });
    const first = (await controller.handle({ callId: "e1", toolName: "deploy", arguments: {} })) as {
      approvalId: string;
    };
    const second = (await controller.handle({ callId: "e2", toolName: "deploy", arguments: {} })) as {
      approvalId: string;
    };
    now += 400;
    await controller.resolve({ approvalId: second.approvalId, approved: false, reason: "not today" });
    now += 5000;
    await expect(controller.resolve({ approvalId: first.approvalId, approved: true })).rejects.toThrow(
      /expired/,
    );
    const expired = await t.points("toolgate.approvals.expired");
    expect(expired.points.map((p) => p.value)).toEqual([1]);
    const wait = await t.points("toolgate.approval.wait_time");
    expect(wait.points.map((p) => [p.attributes["toolgate.approval.outcome"], p.value])).toEqual([
      ["rejected", expect.objectContaining({ count: 1, sum: 0.4 })],
    ]);
  });

  it("an ask denied by onAsk: deny ends its span with the refusal", async () => {
    const bundle = await bundleWith("");
    const t = telemetry();
    const controller = createController({
      bundle,
      handlers,
      onAsk: "deny",
      audit: new OtelAuditSink({ tracer: t.tracer, meter: t.meter }),
    });
    await controller.handle({ callId: "d1", toolName: "deploy", arguments: {} });
    const spans = decisionSpans(t.spans);
    expect(spans).toHaveLength(1);
    expect(spans[0]?.attributes["toolgate.call.rejected_reason"]).toContain("(onAsk: deny)");
  });

  it("a failing durable sink still fails the call closed; OpenTelemetry is told nothing of it", async () => {
    const bundle = await bundleWith("");
    const t = telemetry();
    const broken = {
      name: "broken",
      record: async () => {
        throw new Error("disk full");
      },
      close: async () => {},
    };
    let ran = 0;
    const controller = createController({
      bundle,
      handlers: { ...handlers, write_note: () => String(++ran) },
      audit: new OtelAuditSink({ tracer: t.tracer, meter: t.meter, next: broken }),
    });
    await expect(
      controller.handle({ callId: "f1", toolName: "write_note", arguments: { text: "x" } }),
    ).rejects.toThrow("disk full");
    expect(ran).toBe(0);
    expect(decisionSpans(t.spans)).toEqual([]);
  });

  describe("through the registered global providers and the config", () => {
    const t = telemetry();
    beforeAll(() => {
      trace.setGlobalTracerProvider(t.tracerProvider);
      metrics.setGlobalMeterProvider(t.meterProvider);
    });
    afterAll(() => {
      trace.disable();
      metrics.disable();
    });

    it("audit.otel reports after a JSONL sink, which still verifies; sink: otel alone works too", async () => {
      const bundle = await bundleWith("audit:\n  sink: jsonl:audit.jsonl\n  otel: true\n");
      const controller = createController({ bundle, handlers });
      await controller.handle({ callId: "g1", toolName: "write_note", arguments: { text: "a" } });
      expect(decisionSpans(t.spans).map((s) => s.attributes["gen_ai.tool.call.id"])).toEqual(["g1"]);
      const file = join(bundle.configDir, "audit.jsonl");
      const log = new JsonlAuditSink(file);
      expect((await log.head()).count).toBe(3);
      await log.close();

      const alone = createController({ bundle: await bundleWith("audit:\n  sink: otel\n"), handlers });
      await alone.handle({ callId: "g2", toolName: "erase_disk", arguments: {} });
      expect(decisionSpans(t.spans).map((s) => s.attributes["gen_ai.tool.call.id"])).toEqual(["g1", "g2"]);
    });
  });

  it('import "toolgate" does not load @opentelemetry/api; creating the sink does', () => {
    const script = `
      import { createRequire } from "node:module";
      const require = createRequire(import.meta.url);
      const loaded = () => Object.keys(require.cache).some((k) => k.includes("@opentelemetry"));
      const toolgate = await import("toolgate");
      const before = loaded();
      new toolgate.OtelAuditSink();
      console.log(JSON.stringify({ before, after: loaded() }));
    `;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(child.stderr).toBe("");
    expect(JSON.parse(child.stdout)).toEqual({ before: false, after: true });
  });
});
