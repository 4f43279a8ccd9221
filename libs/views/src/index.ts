/** Lago's JSON objects, built from the services' proto replies: what the API returns and webhooks send. */
export * from "./presenting";
export * from "./add-ons";
export * from "./applied-coupons";
export * from "./billable-metrics";
export * from "./billing-entities";
export * from "./coupons";
export * from "./customers";
export * from "./entitlements";
export * from "./estimate-fees";
export * from "./features";
export * from "./invoice-custom-sections";
export * from "./payments";
export * from "./plans";
export * from "./subscriptions";
export * from "./test-clock";
export * from "./wallets";
