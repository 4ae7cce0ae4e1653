// Its own module so that the CLI bundle keeps yaml in a chunk loaded only for YAML configs.
export { parseDocument } from "yaml";
