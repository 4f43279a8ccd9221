import { z } from "zod";

/** The payment service's own settings (the shared ones, peers' addresses included, are parsed beside them by @billing/runtime). */
export const paymentConfigSchema = z.object({
  /** Several platforms sharing one NATS: each has its own durable consumers. */
  DURABLE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]{1,60}$/).default("billing"),
  /** How often (real time) payments a crash interrupted are looked for. */
  PAYMENT_SWEEP_MS: z.coerce.number().int().min(10).default(2000),
  /** The API's public base URL (the sandbox provider's confirmation links point at it). */
  PUBLIC_URL: z.string().url().default("http://127.0.0.1:3000"),
  /** Where a customer returns after a provider's action. */
  PAYMENT_RETURN_URL: z.string().url().default("http://127.0.0.1:3000/payment_done"),
});

export type PaymentConfig = z.infer<typeof paymentConfigSchema>;
