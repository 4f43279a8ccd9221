import type { SubscriptionInvoicingReason } from "@billing/codes";
import type { CustomerViewData, PlanViewData, SubscriptionViewData } from "@billing/contracts";

/** One billing of one subscription: what is billed at an instant, and why. */
export interface BillingEntry {
  at: Date;
  reason: SubscriptionInvoicingReason;
}

/**
 * What invoicing keeps of the catalog's subscriptions: a read copy fed by their events (the
 * subscription and the plan it is billed on, never a call per invoice), with this service's own
 * billing schedule (the next entry due and the last one billed).
 */
export interface SubscriptionCopy {
  id: string;
  organization_id: string;
  subscription: SubscriptionViewData;
  /** The plan it is billed on (a private copy when overridden). */
  plan: PlanViewData;
  /** Created for a sandbox organization: billed only when its test clock advances. */
  sandbox: boolean;
  /** occurred_at × 4 + lifecycle rank of the event this copy was taken from. */
  version: number;
  /** The next billing due; null when nothing is scheduled (not started, or billed to its end). */
  next_billing_at: Date | null;
  next_billing_reason: SubscriptionInvoicingReason | null;
  /** The last billing done; null before the first. */
  last_billed_at: Date | null;
  last_billed_reason: SubscriptionInvoicingReason | null;
}

/** What invoicing keeps of the customer service's customers (timezone, terms, taxes, numbering). */
export interface CustomerCopy {
  id: string;
  organization_id: string;
  customer: CustomerViewData;
  /** the customer's updated_at, in ms */
  version: number;
}

export const nextEntryOf = (
  copy: Pick<SubscriptionCopy, "next_billing_at" | "next_billing_reason">,
): BillingEntry | null =>
  copy.next_billing_at && copy.next_billing_reason
    ? { at: copy.next_billing_at, reason: copy.next_billing_reason }
    : null;

export const lastEntryOf = (
  copy: Pick<SubscriptionCopy, "last_billed_at" | "last_billed_reason">,
): BillingEntry | null =>
  copy.last_billed_at && copy.last_billed_reason ? { at: copy.last_billed_at, reason: copy.last_billed_reason } : null;

export const sameEntry = (a: BillingEntry | null, b: BillingEntry | null): boolean =>
  a === null || b === null ? a === b : a.at.getTime() === b.at.getTime() && a.reason === b.reason;
