export * from "./countries";
export * from "./currencies";
export * from "./timezones";
export * from "./locales";
export * from "./vocabularies";
export * from "./subjects";
export * from "./derived-id";
