export * from "./helpers";
export * from "./infrastructure";
export * from "./platform";
export * from "./organizations";
export * from "./events";
