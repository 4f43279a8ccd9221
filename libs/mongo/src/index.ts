export * from "./connection";
export * from "./pagination";
export * from "./outbox-store";
export * from "./optimistic";
export * from "./sequence";
export * from "./by-ids";
export * from "./organization-marks";
export * from "./dead-letter-store";
