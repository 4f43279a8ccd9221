import { z } from "zod";

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

/** The invoicing service's own settings (the shared ones, peers' addresses included, are parsed beside them by @billing/runtime). */
export const invoicingConfigSchema = z.object({
  /** Several platforms sharing one NATS: each has its own durable consumers. */
  DURABLE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,60}$/)
    .default("billing"),
  /** How often (real time) ordinary organizations' due billings and grace periods are looked for. */
  BILLING_SCHEDULER_MS: int(1000, 10),
  /** Subscriptions billed per pass: one usage call prices all of them. */
  BILLING_BATCH: int(500, 1),
  /** Invoices priced, stored and finalized at once within a pass. */
  BILLING_CONCURRENCY: int(8, 1),
  /** Ingested envelopes priced and stored per pay-in-advance batch, at most (1: one at a time). */
  ADVANCE_FEE_BATCH: int(50, 1),
  /** The HMAC secret of the invoices' file_url links (shared with the gateway, which serves them); unset → no file_url. */
  DOCUMENT_LINK_SECRET: z.string().min(16).optional(),
  /** How long a file_url link is valid at least (it is rounded up to the hour). */
  DOCUMENT_LINK_TTL_S: int(7 * 24 * 3600, 60),
  /** The gateway's /api/v1 as clients reach it: the base of file_url. */
  PUBLIC_API_URL: z.string().url().default("http://localhost:3000/api/v1"),
});

export type InvoicingConfig = z.infer<typeof invoicingConfigSchema>;
