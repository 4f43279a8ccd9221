import { z } from "zod";

/** The payment service's own settings (the shared ones are parsed beside them by @billing/runtime). None yet. */
export const paymentConfigSchema = z.object({});

export type PaymentConfig = z.infer<typeof paymentConfigSchema>;
