export * from "./connection";
export * from "./pagination";
export * from "./outbox-store";
