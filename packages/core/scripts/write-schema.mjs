// Publishes the config schema as JSON beside the build, for editors ("$schema").
import { writeFileSync } from "node:fs";
import { configSchema } from "../dist/config/schema.js";

writeFileSync(new URL("../dist/config.schema.json", import.meta.url), `${JSON.stringify(configSchema, null, 2)}\n`);
