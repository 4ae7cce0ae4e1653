export { createServer, TOOLS, type ServerOptions } from "./server.js";
export { main } from "./main.js";
