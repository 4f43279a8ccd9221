import { z } from "zod";

/** The catalog service's own settings; the shared ones are parsed beside them by @billing/runtime. */
export const catalogConfigSchema = z.object({
  /** How often pending subscriptions are started, downgrades applied and `ending_at` honoured (ms). */
  SUBSCRIPTION_SCHEDULER_MS: z.coerce.number().int().min(10).default(1000),
});

export type CatalogConfig = z.infer<typeof catalogConfigSchema>;
