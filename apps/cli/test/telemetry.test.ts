import { spawn } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closedPort, startOtlpReceiver, type OtlpReceiver } from "@returnlint/testing/otlp-receiver";
import { finalMessage, subagentStop } from "./claude-payloads.js";
import { BIN, EXAMPLES, project, returnlint, type Run } from "./helpers.js";

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const PARENT_SPAN = "b7ad6b7169203331";

/**
 * The built CLI, run without blocking this process: the receiver the test starts answers in it.
 * The OTLP variables of the machine running the tests are left out; only the test's own count.
 */
function run(args: readonly string[], options: { readonly cwd: string; readonly env?: Record<string, string>; readonly input?: string; readonly bin?: string }): Promise<Run & { readonly ms: number }> {
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith("OTEL_") && name !== "TRACEPARENT" && name !== "GITHUB_REPOSITORY");
  const env = { ...Object.fromEntries(inherited), NO_COLOR: "1", ...options.env };
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.bin ?? BIN, ...args], { cwd: options.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (status) => {
      resolve({ status, stdout, stderr, ms: performance.now() - started });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** The metadata-file example, with task 259's report deleted (phantom work) unless `keepReport`. */
function example(keepReport = false): string {
  const root = project({});
  cpSync(path.join(EXAMPLES, "metadata-file"), root, { recursive: true });
  if (!keepReport) rmSync(path.join(root, "specs/259_prove_completeness/reports"), { recursive: true });
  return root;
}

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("verdicts as OpenTelemetry events", { timeout: 60_000 }, () => {
  it("check sends one gen_ai.evaluation.result record per task, protobuf by default, and prints and exits as without telemetry", async () => {
    receiver = await startOtlpReceiver();
    const root = example();
    const without = await run(["check", "--task", "259-260"], { cwd: root });
    const withTelemetry = await run(["check", "--task", "259-260"], {
      cwd: root,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, TRACEPARENT: `00-${TRACE_ID}-${PARENT_SPAN}-01`, GITHUB_REPOSITORY: "acme/agents" },
    });
    expect(withTelemetry.status).toBe(without.status);
    expect(withTelemetry.status).toBe(1);
    expect(withTelemetry.stdout).toBe(without.stdout);
    expect(withTelemetry.stderr).toBe(without.stderr);
    const records = receiver.records;
    expect(records.map((record) => record.contentType)).toEqual(["application/x-protobuf", "application/x-protobuf"]);
    expect(records.map((record) => [record.attributes["returnlint.task"], record.attributes["gen_ai.evaluation.score.label"], record.attributes["returnlint.phantom"]])).toEqual([
      ["259", "fail", true],
      ["260", "fail", false],
    ]);
    expect(records[0]).toMatchObject({
      traceId: TRACE_ID,
      spanId: PARENT_SPAN,
      resource: { "service.name": "returnlint" },
      attributes: {
        "event.name": "gen_ai.evaluation.result",
        "gen_ai.evaluation.name": "returnlint",
        "gen_ai.agent.name": "lean-research-agent",
        "returnlint.host": "cli",
        "returnlint.command": "check",
        "returnlint.repository": "acme/agents",
      },
    });
    expect(records[0]?.attributes["gen_ai.evaluation.explanation"]).toMatch(/^\/artifacts\/0\/path: /);
  });

  it("scan sends one record per return it judged, over OTLP/JSON when asked", async () => {
    receiver = await startOtlpReceiver();
    const root = example(true);
    const listed = await run(["scan", "--format", "json"], { cwd: root });
    const judged = JSON.parse(listed.stdout) as { source: string; ok: boolean }[];
    const scanned = await run(["scan"], { cwd: root, env: { OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: `${receiver.endpoint}/v1/logs`, OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: "http/json", OTEL_SERVICE_NAME: "fleet" } });
    expect(scanned.status).toBe(listed.status);
    expect(receiver.records.map((record) => record.contentType)).toEqual(judged.map(() => "application/json"));
    expect(receiver.records.map((record) => [record.attributes["returnlint.source"], record.attributes["gen_ai.evaluation.score.label"]])).toEqual(judged.map((report) => [report.source, report.ok ? "pass" : "fail"]));
    expect(receiver.records.every((record) => record.attributes["returnlint.command"] === "scan" && record.resource["service.name"] === "fleet" && record.traceId === "")).toBe(true);
  });

  it("hook claude sends the verdict it blocks on, with the host's name, parented to the host's span", async () => {
    receiver = await startOtlpReceiver();
    const root = project({});
    const payload = JSON.stringify(subagentStop({ cwd: root, message: finalMessage(["specs/259_prove_completeness/reports/research-001.md"]) }));
    const blocked = await run(["hook", "claude"], { cwd: root, input: payload, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, TRACEPARENT: `00-${TRACE_ID}-${PARENT_SPAN}-01` } });
    expect(blocked.status).toBe(0);
    expect(JSON.parse(blocked.stdout)).toMatchObject({ decision: "block" });
    expect(blocked.stderr).toBe("");
    expect(receiver.records).toHaveLength(1);
    expect(receiver.records[0]).toMatchObject({
      traceId: TRACE_ID,
      spanId: PARENT_SPAN,
      attributes: { "gen_ai.evaluation.score.label": "fail", "returnlint.host": "claude", "returnlint.command": "hook", "returnlint.phantom": true, "gen_ai.agent.name": "lean-research-agent" },
    });
  });

  it("the vendored copy (init claude --vendor) sends the hook's verdict too, at its first stop and from its code caches after", async () => {
    receiver = await startOtlpReceiver();
    const root = project({});
    const hook = path.join(root, ".claude", "hooks", "returnlint.cjs");
    mkdirSync(path.dirname(hook), { recursive: true });
    copyFileSync(path.join(path.dirname(BIN), "returnlint-vendored.cjs"), hook);
    copyFileSync(path.join(path.dirname(BIN), "returnlint-vendored.pack"), path.join(path.dirname(hook), "returnlint.pack"));
    const payload = JSON.stringify(subagentStop({ cwd: root, message: finalMessage(["specs/259_prove_completeness/reports/research-001.md"]) }));
    for (let stop = 1; stop <= 2; stop += 1) {
      // A fresh ledger each time: the second stop is a first block too, not a repeat the hook gives up on.
      rmSync(path.join(root, ".returnlint"), { recursive: true, force: true });
      const blocked = await run(["hook", "claude"], { cwd: root, input: payload, bin: hook, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } });
      expect(JSON.parse(blocked.stdout)).toMatchObject({ decision: "block" });
      // No "verdicts not sent" line: the exporter's import of node:http works in a chunk the copy compiles itself.
      expect(blocked.stderr).toBe("");
      expect(receiver.records).toHaveLength(stop);
    }
    expect(receiver.records.map((record) => record.attributes["returnlint.host"])).toEqual(["claude", "claude"]);
  });

  it("a collector that is down changes neither the verdict nor the exit code: one warning on standard error, within the export timeout", async () => {
    const root = example();
    const endpoint = `http://127.0.0.1:${String(await closedPort())}`;
    const without = returnlint(["check", "--task", "259"], { cwd: root });
    const down = await run(["check", "--task", "259"], { cwd: root, env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: "2000" } });
    expect(down.status).toBe(without.status);
    expect(down.stdout).toBe(without.stdout);
    const warnings = down.stderr.split("\n").filter((line) => line.includes("OpenTelemetry"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^returnlint: 1 verdict not sent to OpenTelemetry: /);
    expect(down.stderr.replace(`${warnings[0] ?? ""}\n`, "")).toBe(without.stderr);
    expect(down.ms).toBeLessThan(20_000);
  });
});
