/**
 * Whether verdicts go out as OpenTelemetry events: the standard OTLP environment names an endpoint
 * (`OTEL_EXPORTER_OTLP_LOGS_ENDPOINT`, or `OTEL_EXPORTER_OTLP_ENDPOINT` for every signal), and
 * neither `OTEL_SDK_DISABLED=true` nor `OTEL_LOGS_EXPORTER=none` turns the logs off. Without an
 * endpoint nothing of the SDK is loaded: the check's start-up is the same as without telemetry.
 */
export function telemetryEnabled(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  if (env.OTEL_LOGS_EXPORTER?.trim().toLowerCase() === "none") return false;
  return (env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT ?? "").trim() !== "" || (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? "").trim() !== "";
}

/** The OTLP/HTTP encodings the exporters speak: `http/protobuf` (the specification's default) and `http/json`. */
export type OtlpProtocol = "http/protobuf" | "http/json";

/** `OTEL_EXPORTER_OTLP_LOGS_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`, else http/protobuf; a string for one returnlint cannot speak (grpc). */
export function otlpProtocol(env: NodeJS.ProcessEnv): OtlpProtocol | { readonly unsupported: string } {
  const given = (env.OTEL_EXPORTER_OTLP_LOGS_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "").trim();
  if (given === "" || given === "http/protobuf") return "http/protobuf";
  if (given === "http/json") return "http/json";
  return { unsupported: given };
}

/**
 * How long one export may take when neither `OTEL_EXPORTER_OTLP_LOGS_TIMEOUT` nor
 * `OTEL_EXPORTER_OTLP_TIMEOUT` says: a stop hook runs at every subagent stop, and a collector that
 * does not answer must not hold the agent for the specification's ten seconds.
 */
export const DEFAULT_EXPORT_TIMEOUT_MS = 3000;

/** The export timeout the environment sets, in milliseconds; undefined when it sets none that is valid. */
export function exportTimeout(env: NodeJS.ProcessEnv): number | undefined {
  for (const name of ["OTEL_EXPORTER_OTLP_LOGS_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"]) {
    const value = Number((env[name] ?? "").trim());
    if ((env[name] ?? "").trim() !== "" && Number.isFinite(value) && value > 0) return value;
  }
  return undefined;
}

/**
 * Where log records go: `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT` as written, else
 * `OTEL_EXPORTER_OTLP_ENDPOINT` with the logs path `v1/logs` appended, as the specification says.
 */
export function logsEndpoint(env: NodeJS.ProcessEnv): string {
  const logs = (env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT ?? "").trim();
  if (logs !== "") return logs;
  const base = (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? "").trim();
  return `${base}${base.endsWith("/") ? "" : "/"}v1/logs`;
}

/**
 * `OTEL_EXPORTER_OTLP_HEADERS`, then `OTEL_EXPORTER_OTLP_LOGS_HEADERS` over it (an API key for a
 * backend, usually).
 */
export function otlpHeaders(env: NodeJS.ProcessEnv): Record<string, string> {
  return { ...keyValues(env.OTEL_EXPORTER_OTLP_HEADERS), ...keyValues(env.OTEL_EXPORTER_OTLP_LOGS_HEADERS) };
}

/** The resource every record carries: `OTEL_RESOURCE_ATTRIBUTES`, with `OTEL_SERVICE_NAME` over its `service.name` (default `returnlint`), as the specification orders them. */
export function resourceAttributes(env: NodeJS.ProcessEnv): Record<string, string> {
  const given = keyValues(env.OTEL_RESOURCE_ATTRIBUTES);
  const serviceName = env.OTEL_SERVICE_NAME?.trim();
  return { ...given, "service.name": serviceName !== undefined && serviceName !== "" ? serviceName : (given["service.name"] ?? "returnlint") };
}

/** `key=value,key2=value2`, each part percent-decoded; a pair without `=` is left out. */
function keyValues(text: string | undefined): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const key = decoded(pair.slice(0, at).trim());
    if (key !== "") pairs[key] = decoded(pair.slice(at + 1).trim());
  }
  return pairs;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // Not percent-encoding after all (a lone "%"): the text as written.
    return text;
  }
}
