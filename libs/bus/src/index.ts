export * from "./subjects";
export * from "./envelope";
export * from "./connection";
export * from "./publish";
export * from "./consumer";
export * from "./outbox";
export * from "./derived-id";
export * from "./batch-consumer";
