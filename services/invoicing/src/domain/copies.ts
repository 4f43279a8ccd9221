import type { CustomerViewData, PlanViewData, SubscriptionViewData } from "@billing/contracts";

/**
 * What invoicing keeps of the catalog's subscriptions and the customer service's customers: read
 * copies fed by their events (never a call per invoice), with this service's billing state.
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
  /** The next instant at which its periodic invoice is due; null once it no longer bills periodically. */
  next_billing_at: Date | null;
}

export interface CustomerCopy {
  id: string;
  organization_id: string;
  customer: CustomerViewData;
  /** the customer's updated_at, in ms */
  version: number;
}
