import { runBackendService } from "@billing/runtime";

// The invoicing service owns invoices, fees, invoice numbering, billing runs, credit notes.
// It runs, connects to its database and the bus, and serves gRPC health; its business RPCs come next.
void runBackendService("invoicing", async () => ({ bindings: [] }));
