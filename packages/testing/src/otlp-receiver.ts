import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";

/** One log record as it arrived, whatever its encoding: attributes as plain values, ids in hex. */
export interface ReceivedRecord {
  /** `application/json` or `application/x-protobuf`: how the exporter sent it. */
  readonly contentType: string;
  /**
   * The record's event name. Empty for protobuf: the generated code that decodes it predates the
   * field (LogRecord's event_name, 12), whose bytes it skips; the `event.name` attribute carries it there.
   */
  readonly eventName: string;
  readonly body: unknown;
  readonly severityText: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly resource: Readonly<Record<string, unknown>>;
  readonly scope: string;
  /** Hex, empty when the record has no parent span. */
  readonly traceId: string;
  readonly spanId: string;
  /** The request's headers, lower-case (to see OTEL_EXPORTER_OTLP_HEADERS arrive). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it (the exporters add /v1/logs). */
  readonly endpoint: string;
  readonly records: readonly ReceivedRecord[];
  /** Requests that reached /v1/logs. */
  readonly requests: number;
  close(): Promise<void>;
}

interface KeyValue {
  readonly key: string;
  readonly value?: Record<string, unknown> | null;
}

/**
 * The OTLP protobuf messages, from the code the OpenTelemetry project generated from its own
 * .proto files (shipped in @opentelemetry/otlp-transformer's releases that used protobufjs).
 */
interface GeneratedMessages {
  readonly opentelemetry: {
    readonly proto: {
      readonly collector: {
        readonly logs: { readonly v1: { readonly ExportLogsServiceRequest: { decode(data: Uint8Array): unknown; toObject(message: unknown, options: object): unknown } } };
      };
    };
  };
}

const generated = (): GeneratedMessages => createRequire(import.meta.url)("otlp-generated-protos/build/src/generated/root.js") as GeneratedMessages;

/**
 * An OTLP/HTTP logs receiver on 127.0.0.1: it decodes what arrives at /v1/logs (JSON, or protobuf
 * with the official generated types) and answers 200 with an empty ExportLogsServiceResponse, or
 * `status` when given (a collector that refuses).
 */
export async function startOtlpReceiver(options: { readonly status?: number } = {}): Promise<OtlpReceiver> {
  const records: ReceivedRecord[] = [];
  let requests = 0;
  const server = createServer((request, response) => {
    void (async () => {
      const data = await bodyOf(request);
      if (request.url !== "/v1/logs") {
        response.writeHead(404).end();
        return;
      }
      requests += 1;
      const contentType = (request.headers["content-type"] ?? "").split(";")[0]?.trim() ?? "";
      const payload = contentType === "application/json" ? (JSON.parse(data.toString("utf8")) as unknown) : decodeProtobuf(data);
      records.push(...recordsOf(payload, contentType, request.headers));
      const status = options.status ?? 200;
      response.writeHead(status, { "content-type": contentType === "application/json" ? "application/json" : "application/x-protobuf" });
      response.end(contentType === "application/json" ? "{}" : Buffer.alloc(0));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${String(port)}`,
    records,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on: one taken and given back. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  return port;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const data = Buffer.concat(chunks);
  return request.headers["content-encoding"] === "gzip" ? gunzipSync(data) : data;
}

function decodeProtobuf(data: Buffer): unknown {
  const { ExportLogsServiceRequest } = generated().opentelemetry.proto.collector.logs.v1;
  return ExportLogsServiceRequest.toObject(ExportLogsServiceRequest.decode(data), { longs: String, bytes: Array, defaults: false });
}

/** The records of an ExportLogsServiceRequest, JSON or decoded protobuf (the two name their fields alike). */
function recordsOf(payload: unknown, contentType: string, headers: IncomingMessage["headers"]): ReceivedRecord[] {
  const request = payload as { resourceLogs?: { resource?: { attributes?: KeyValue[] }; scopeLogs?: { scope?: { name?: string }; logRecords?: Record<string, unknown>[] }[] }[] };
  return (request.resourceLogs ?? []).flatMap((resourceLogs) =>
    (resourceLogs.scopeLogs ?? []).flatMap((scopeLogs) =>
      (scopeLogs.logRecords ?? []).map((record) => ({
        contentType,
        eventName: typeof record.eventName === "string" ? record.eventName : "",
        body: valueOf(record.body as Record<string, unknown> | undefined),
        severityText: typeof record.severityText === "string" ? record.severityText : "",
        attributes: attributesOf(record.attributes as KeyValue[] | undefined),
        resource: attributesOf(resourceLogs.resource?.attributes),
        scope: scopeLogs.scope?.name ?? "",
        traceId: hex(record.traceId),
        spanId: hex(record.spanId),
        headers,
      })),
    ),
  );
}

function attributesOf(list: readonly KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value ?? undefined)]));
}

/** An AnyValue as a plain value: integers as numbers whether JSON wrote them as strings or numbers. */
function valueOf(value: Record<string, unknown> | undefined): unknown {
  if (value === undefined) return undefined;
  if ("stringValue" in value) return value.stringValue;
  if ("boolValue" in value) return value.boolValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return Number(value.doubleValue);
  return value;
}

/** JSON carries ids as hex already; protobuf, decoded with `bytes: Array`, as a list of bytes. */
function hex(id: unknown): string {
  if (typeof id === "string") return id.toLowerCase();
  if (Array.isArray(id)) return Buffer.from(id as number[]).toString("hex");
  return "";
}
