import { defineService } from "@billing/runtime";
import { paymentConfigSchema } from "./config";

/**
 * The payment service owns payments, payment requests, webhook endpoints and deliveries. It runs, connects to its database and the bus, and serves
 * gRPC health; its business RPCs come next (see services/README.md for where each part goes).
 */
export const paymentService = defineService({
  name: "payment",
  config: paymentConfigSchema,
  wire: async () => ({ bindings: [] }),
});
