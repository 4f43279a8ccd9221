export * from "./helpers";
export * from "./infrastructure";
export * from "./launch-platform";
export * from "./organizations";
export * from "./events";
export * from "./own-nats";
