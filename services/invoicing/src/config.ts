import { z } from "zod";

/** The invoicing service's own settings (the shared ones are parsed beside them by @billing/runtime). None yet. */
export const invoicingConfigSchema = z.object({});

export type InvoicingConfig = z.infer<typeof invoicingConfigSchema>;
