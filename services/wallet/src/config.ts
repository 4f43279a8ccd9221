import { z } from "zod";

/** The wallet service's own settings (the shared ones, peers' addresses included, are parsed beside them by @billing/runtime). */
export const walletConfigSchema = z.object({
  /** Several platforms sharing one NATS: each has its own durable consumers. */
  DURABLE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,60}$/)
    .default("billing"),
  /** How often (real time) ordinary organizations' wallets past their expiration are looked for. */
  WALLET_SCHEDULER_MS: z.coerce.number().int().min(10).default(1000),
});

export type WalletConfig = z.infer<typeof walletConfigSchema>;
