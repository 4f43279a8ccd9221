import { defineService } from "@billing/runtime";
import { invoicingConfigSchema } from "./config";

/**
 * The invoicing service owns invoices, fees, invoice numbering, billing runs, credit notes. It runs, connects to its database and the bus, and serves
 * gRPC health; its business RPCs come next (see services/README.md for where each part goes).
 */
export const invoicingService = defineService({
  name: "invoicing",
  config: invoicingConfigSchema,
  wire: async () => ({ bindings: [] }),
});
