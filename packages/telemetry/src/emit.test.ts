import { cpSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { lintTask, loadReturnlintConfig, type ReportObject } from "@returnlint/api";
import { tempProject } from "@returnlint/testing";
import { closedPort, startOtlpReceiver, type OtlpReceiver } from "@returnlint/testing/otlp-receiver";
import { emitVerdicts, repositoryOf, telemetryEnabled } from "./index.js";

const EXAMPLE = fileURLToPath(new URL("../../../examples/metadata-file", import.meta.url));
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_SPAN = "00f067aa0ba902b7";

/** Task 259 of the example as it is (its report exists: a pass), and again with its report deleted (phantom work: a fail). */
async function verdicts(): Promise<{ readonly passed: ReportObject; readonly phantom: ReportObject; readonly root: string }> {
  const root = tempProject({});
  cpSync(EXAMPLE, root, { recursive: true });
  const config = await loadReturnlintConfig({ cwd: root });
  const passed = (await lintTask("259", { root, config })).report;
  rmSync(path.join(root, "specs/259_prove_completeness/reports"), { recursive: true });
  const phantom = (await lintTask("259", { root, config })).report;
  return { passed, phantom, root };
}

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("emitVerdicts", () => {
  it.each(["http/json", "http/protobuf"])("sends one gen_ai.evaluation.result record per verdict over %s, parented to TRACEPARENT", async (protocol) => {
    receiver = await startOtlpReceiver();
    const { passed, phantom, root } = await verdicts();
    expect([passed.ok, phantom.ok, phantom.phantom]).toEqual([true, false, true]);
    const warnings: string[] = [];
    await emitVerdicts([passed, phantom], {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=s%3Dcret",
        OTEL_SERVICE_NAME: "ci-agents",
        TRACEPARENT: `00-${TRACE_ID}-${PARENT_SPAN}-01`,
        GITHUB_REPOSITORY: "acme/agents",
      },
      command: "check",
      host: "cli",
      root,
      warn: (line) => warnings.push(line),
    });
    expect(warnings).toEqual([]);
    const records = receiver.records;
    expect(records.map((record) => record.contentType)).toEqual(Array(2).fill(protocol === "http/json" ? "application/json" : "application/x-protobuf"));
    expect(records[0]?.headers["x-api-key"]).toBe("s=cret");
    if (protocol === "http/json") expect(records.map((record) => record.eventName)).toEqual(["gen_ai.evaluation.result", "gen_ai.evaluation.result"]);
    expect(records.map((record) => [record.traceId, record.spanId])).toEqual([
      [TRACE_ID, PARENT_SPAN],
      [TRACE_ID, PARENT_SPAN],
    ]);
    expect(records[0]?.resource["service.name"]).toBe("ci-agents");
    expect(records[0]?.scope).toBe("returnlint");
    expect(records[0]?.attributes).toMatchObject({
      "event.name": "gen_ai.evaluation.result",
      "gen_ai.evaluation.name": "returnlint",
      "gen_ai.evaluation.score.label": "pass",
      "gen_ai.evaluation.score.value": 1,
      "gen_ai.agent.name": "lean-research-agent",
      "returnlint.host": "cli",
      "returnlint.command": "check",
      "returnlint.task": "259",
      "returnlint.repository": "acme/agents",
      "returnlint.phantom": false,
    });
    expect(records[0]?.attributes).not.toHaveProperty("gen_ai.evaluation.explanation");
    expect(records[1]?.attributes).toMatchObject({ "gen_ai.evaluation.score.label": "fail", "gen_ai.evaluation.score.value": 0, "returnlint.phantom": true, "returnlint.task": "259" });
    // The explanation is the first line the subagent would be re-asked with: its pointer, then what to do.
    expect(records[1]?.attributes["gen_ai.evaluation.explanation"]).toMatch(/^\/artifacts\/0\/path: /);
    expect(records[1]?.body).toMatch(/^\[FAIL\] .*\(phantom work\)$/);
  });

  it("says once on the warning line, within the export timeout, when the collector is down; nothing is thrown", async () => {
    const { phantom, root } = await verdicts();
    const warnings: string[] = [];
    const started = performance.now();
    await emitVerdicts([phantom, phantom], {
      env: { OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: `http://127.0.0.1:${String(await closedPort())}/v1/logs`, OTEL_EXPORTER_OTLP_TIMEOUT: "1500" },
      command: "scan",
      host: "cli",
      root,
      warn: (line) => warnings.push(line),
    });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^returnlint: 2 verdicts not sent to OpenTelemetry: /);
  });

  it("warns about a collector that refuses the records", async () => {
    receiver = await startOtlpReceiver({ status: 400 });
    const { passed, root } = await verdicts();
    const warnings: string[] = [];
    await emitVerdicts([passed], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint }, command: "check", host: "cli", root, warn: (line) => warnings.push(line) });
    expect(receiver.requests).toBe(1);
    expect(warnings).toHaveLength(1);
  });

  it("sends nothing and loads nothing without an OTLP endpoint, or when the SDK or the logs are turned off", () => {
    expect(telemetryEnabled({})).toBe(false);
    expect(telemetryEnabled({ OTEL_SERVICE_NAME: "x" })).toBe(false);
    expect(telemetryEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(telemetryEnabled({ OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: "http://127.0.0.1:4318/v1/logs" })).toBe(true);
    expect(telemetryEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "true" })).toBe(false);
    expect(telemetryEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_LOGS_EXPORTER: "none" })).toBe(false);
  });

  it("warns, and sends nothing, for a protocol it cannot speak", async () => {
    const { passed, root } = await verdicts();
    const warnings: string[] = [];
    await emitVerdicts([passed], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, command: "check", host: "cli", root, warn: (line) => warnings.push(line) });
    expect(warnings).toEqual(['returnlint: verdicts not sent to OpenTelemetry: OTLP protocol "grpc" is not one returnlint speaks (http/protobuf or http/json).']);
  });
});

describe("repositoryOf", () => {
  it("takes what CI names, else the origin remote without its credentials, else the folder's name", () => {
    const root = tempProject({ ".git/config": '[core]\n\tbare = false\n[remote "origin"]\n\turl = https://user:token@github.com/acme/agents.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n' });
    expect(repositoryOf(root, { GITHUB_REPOSITORY: "acme/ci" })).toBe("acme/ci");
    expect(repositoryOf(root, { CI_PROJECT_PATH: "group/project" })).toBe("group/project");
    expect(repositoryOf(root, {})).toBe("https://github.com/acme/agents.git");
    const plain = tempProject({ "README.md": "no git here\n" });
    expect(repositoryOf(plain, {})).toBe(path.basename(plain));
  });
});
