import { runBackendService } from "@billing/runtime";

// The payment service owns payments, payment requests, webhook endpoints and deliveries.
// It runs, connects to its database and the bus, and serves gRPC health; its business RPCs come next.
void runBackendService("payment", async () => ({ bindings: [] }));
