import { z } from "zod";

/**
 * The customer service's own settings; the shared ones (GRPC_*, MONGO_*, NATS_URL, LOG_LEVEL,
 * CLOCK_OFFSET_MS, <PEER>_GRPC_ADDR) are parsed beside them by @billing/runtime. None yet.
 */
export const customerConfigSchema = z.object({});

export type CustomerConfig = z.infer<typeof customerConfigSchema>;
