export * from "./kinds";
export * from "./app-error";
export * from "./http";
export * from "./grpc";
export * from "./transient";
