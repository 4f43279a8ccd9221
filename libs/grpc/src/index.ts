export * from "./proto";
export * from "./server";
export * from "./client";
export * from "./health";
export * from "./typed";
export * from "./fields";
export * from "./codec";
