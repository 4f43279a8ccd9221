import { defineService } from "@billing/runtime";
import { walletConfigSchema } from "./config";

/**
 * The wallet service owns wallets, wallet transactions, recurring top-up rules. It runs, connects to its database and the bus, and serves
 * gRPC health; its business RPCs come next (see services/README.md for where each part goes).
 */
export const walletService = defineService({
  name: "wallet",
  config: walletConfigSchema,
  wire: async () => ({ bindings: [] }),
});
