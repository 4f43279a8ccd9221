import { runBackendService } from "@billing/runtime";

// The wallet service owns wallets, wallet transactions, recurring top-up rules.
// It runs, connects to its database and the bus, and serves gRPC health; its business RPCs come next.
void runBackendService("wallet", async () => ({ bindings: [] }));
