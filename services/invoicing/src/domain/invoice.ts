/** An invoice as this service stores it: one document, its fees embedded (never a half invoice). */
export interface Invoice {
  id: string;
  organization_id: string;
  customer_id: string;
  external_customer_id: string;
  /** the billing instant or change that produced it (with `reason`, what makes its id) */
  billed_at: Date;
  reason: "subscription_starting" | "subscription_periodic" | "subscription_terminating";
  status: "draft" | "finalized" | "closed";
  /** the grace period's end: a draft is finalized then */
  finalize_at: Date | null;
  sandbox: boolean;
  /** The subscriptions it bills and what each covers, to rebuild a draft from usage. */
  lines: BilledSubscription[];
  /** The API's InvoiceObjectExtended, svc_ ids: what every read answers. */
  view: InvoiceView;
  created_at: Date;
  updated_at: Date;
}

export interface BilledSubscription {
  subscription_id: string;
  reason: Invoice["reason"];
}

export type InvoiceView = Record<string, unknown> & {
  svc_id: string;
  number: string;
  status: string;
  payment_status: string;
  invoice_type: string;
  issuing_date: string;
  fees: Array<Record<string, unknown>>;
};
