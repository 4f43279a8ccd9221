import { z } from "zod";

/**
 * The customer service's own settings; the shared ones (GRPC_*, MONGO_*, NATS_URL, LOG_LEVEL,
 * CLOCK_OFFSET_MS, <PEER>_GRPC_ADDR) are parsed beside them by @billing/runtime.
 */
export const customerConfigSchema = z.object({
  /**
   * The services a test clock drives, in the order each step runs them (comma-separated): the
   * catalog's subscription changes first, then wallet expirations (an expiring wallet pays nothing at that instant), then what bills them.
   */
  TEST_CLOCK_PEERS: z
    .string()
    .default("catalog,wallet,invoicing")
    .transform((list) =>
      list
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(["catalog", "usage", "invoicing", "wallet", "payment"]))),
});

export type CustomerConfig = z.infer<typeof customerConfigSchema>;
