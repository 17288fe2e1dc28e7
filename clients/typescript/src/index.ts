// The generated client (operations named by the service's operationIds, their types, and the
// fetch client) and the hand-written helpers.
export * from "./generated/index.js";
export { client } from "./generated/client.gen.js";
export { createClient, createConfig } from "./generated/client/index.js";
export * from "./feed.js";
export * from "./webhooks.js";
