import { z } from "zod";

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

/** The invoicing service's own settings (the shared ones, peers' addresses included, are parsed beside them by @billing/runtime). */
export const invoicingConfigSchema = z.object({
  /** Several platforms sharing one NATS: each has its own durable consumers. */
  DURABLE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]{1,60}$/).default("billing"),
  /** How often (real time) ordinary organizations' due billings and grace periods are looked for. */
  BILLING_SCHEDULER_MS: int(1000, 10),
  /** Subscriptions billed per pass: one usage call prices all of them. */
  BILLING_BATCH: int(500, 1),
  /** Invoices priced, stored and finalized at once within a pass. */
  BILLING_CONCURRENCY: int(8, 1),
});

export type InvoicingConfig = z.infer<typeof invoicingConfigSchema>;
