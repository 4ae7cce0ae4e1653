export { telemetryEnabled } from "./environment.js";
export { EVALUATION_EVENT, EVALUATION_NAME, verdictEvent, type VerdictContext, type VerdictEvent } from "./event.js";
export { emitVerdicts, repositoryOf, type EmitOptions } from "./emit.js";
