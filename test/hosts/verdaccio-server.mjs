// Starts Verdaccio on 127.0.0.1 (an ephemeral port) for the hosts suite and prints {"port":N} once it listens.
// Arguments: the folder Verdaccio is installed in, the storage folder, the uplink registry's URL.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [installDir, storage, uplink] = process.argv.slice(2);
const { runServer } = await import(pathToFileURL(path.join(installDir, "node_modules", "verdaccio", "build", "index.js")).href);
const own = { access: "$all", publish: "$all", unpublish: "$all" };
const app = await runServer({
  self_path: path.join(storage, "config.yaml"),
  storage,
  auth: { htpasswd: { file: path.join(storage, "htpasswd"), max_users: -1 } },
  uplinks: { upstream: { url: uplink, timeout: "60s", max_fails: 5 } },
  packages: {
    // Our packages come from this registry only: what the suite published is all a user gets.
    returnlint: own,
    "returnlint-*": own,
    "@returnlint/*": own,
    "**": { access: "$all", publish: "$all", proxy: "upstream" },
  },
  web: { enable: false },
  log: { type: "stdout", format: "json", level: "error" },
  max_body_size: "100mb",
  server: { keepAliveTimeout: 60 },
});
const server = app.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
