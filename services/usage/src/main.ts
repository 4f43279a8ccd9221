import { runBackendService } from "@billing/runtime";

// The usage service owns usage events and their aggregates.
// It runs, connects to its database and the bus, and serves gRPC health; its business RPCs come next.
void runBackendService("usage", async () => ({ bindings: [] }));
