export * from "./common";
export * from "./catalog";
export * from "./customers";
export * from "./invoices";
export * from "./payments";
export * from "./wallets";
export * from "./invoice-audit";
