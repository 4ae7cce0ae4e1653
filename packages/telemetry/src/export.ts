// The OpenTelemetry SDK's part: imported only when the OTLP environment is set (index.ts), and in
// the CLI's bundle a chunk of its own, so that no run without telemetry reads a line of it.
import { ROOT_CONTEXT, SeverityNumber, defaultTextMapGetter, type Context } from "@opentelemetry/api";
import { ExportResultCode, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPLogExporter as JsonExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { OTLPLogExporter as ProtobufExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { LoggerProvider, SimpleLogRecordProcessor, type LogRecordExporter, type ReadableLogRecord } from "@opentelemetry/sdk-logs";
import { DEFAULT_EXPORT_TIMEOUT_MS, exportTimeout, logsEndpoint, otlpHeaders, resourceAttributes, type OtlpProtocol } from "./environment.js";
import type { VerdictEvent } from "./event.js";

export interface ExportOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly protocol: OtlpProtocol;
  /** The instrumentation scope's version: returnlint's. */
  readonly version: string;
}

/**
 * Sends the events as log records over OTLP/HTTP and waits until the collector took them or
 * refused. The endpoint, headers and timeout are read from the environment the caller hands in
 * (a library's caller may hand one that is not the process's); the timeout is bounded
 * (`DEFAULT_EXPORT_TIMEOUT_MS`) unless it sets one. Returns why the collector did not take them,
 * or null when it did.
 */
export async function exportEvents(events: readonly VerdictEvent[], options: ExportOptions): Promise<string | null> {
  const timeoutMillis = exportTimeout(options.env) ?? DEFAULT_EXPORT_TIMEOUT_MS;
  const config = { url: logsEndpoint(options.env), headers: otlpHeaders(options.env), timeoutMillis };
  const exporter = options.protocol === "http/json" ? new JsonExporter(config) : new ProtobufExporter(config);
  const failures: string[] = [];
  const provider = new LoggerProvider({
    resource: resourceFromAttributes(resourceAttributes(options.env)),
    processors: [new SimpleLogRecordProcessor({ exporter: watched(exporter, failures) })],
  });
  const logger = provider.getLogger("returnlint", options.version);
  const parent = parentContext(options.env);
  for (const event of events) {
    logger.emit({ eventName: event.eventName, severityNumber: SeverityNumber.INFO, severityText: "INFO", body: event.body, attributes: event.attributes, context: parent });
  }
  await provider.shutdown();
  return failures[0] ?? null;
}

/** The exporter, with each failed export's reason kept: the SDK itself only hands it to a silent diagnostic logger. */
function watched(exporter: LogRecordExporter, failures: string[]): LogRecordExporter {
  return {
    export(records: ReadableLogRecord[], done) {
      exporter.export(records, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) failures.push(result.error?.message ?? "the collector refused the records");
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
}

/**
 * The span a host runs the check in, from `TRACEPARENT` (and `TRACESTATE`), the W3C trace context
 * as environment variables: every record is its child, as the convention asks of an evaluation
 * event. Without one (or with one that does not parse) the records stand alone.
 */
function parentContext(env: NodeJS.ProcessEnv): Context {
  const traceparent = env.TRACEPARENT?.trim();
  if (traceparent === undefined || traceparent === "") return ROOT_CONTEXT;
  const carrier: Record<string, string> = { traceparent, ...(env.TRACESTATE === undefined ? {} : { tracestate: env.TRACESTATE }) };
  return new W3CTraceContextPropagator().extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
}
