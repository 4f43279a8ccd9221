import { runBackendService } from "@billing/runtime";

// The catalog service owns billable metrics, taxes, add-ons, coupons, applied coupons, plans and subscriptions.
// It runs, connects to its database and the bus, and serves gRPC health; its business RPCs come next.
void runBackendService("catalog", async () => ({ bindings: [] }));
