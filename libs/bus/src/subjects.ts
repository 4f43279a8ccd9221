// the subjects' names are a vocabulary of their own (@billing/codes), which pure code may import
export { Subjects } from "@billing/codes";

/** One stream per producing service, holding all of its subjects. */
export const Streams = {
  customer: { name: "BILLING_CUSTOMER", subjects: ["billing.customer.>"] },
  catalog: { name: "BILLING_CATALOG", subjects: ["billing.catalog.>"] },
  usage: { name: "BILLING_USAGE", subjects: ["billing.usage.>"] },
  invoicing: { name: "BILLING_INVOICING", subjects: ["billing.invoicing.>"] },
  wallet: { name: "BILLING_WALLET", subjects: ["billing.wallet.>"] },
  payment: { name: "BILLING_PAYMENT", subjects: ["billing.payment.>"] },
} as const;

export type StreamSpec = { name: string; subjects: readonly string[] };
