import type { SubscriptionStatus } from "@billing/codes";
import type { AppliedSection } from "@billing/contracts";

/** A subscription's states (spec: States and transitions), @billing/codes' SUBSCRIPTION_STATUSES. */
export type { SubscriptionStatus } from "@billing/codes";

export const BILLING_TIMES = ["calendar", "anniversary"] as const;
export type BillingTimeName = (typeof BILLING_TIMES)[number];

export const ON_TERMINATION_CREDIT_NOTES = ["credit", "refund", "offset", "skip"] as const;
export const ON_TERMINATION_INVOICES = ["generate", "skip"] as const;

/** A customer's subscription to a plan, as the catalog stores it. */
export interface Subscription {
  id: string;
  organization_id: string;
  external_id: string;
  customer_id: string;
  external_customer_id: string;
  /** The plan billed: the public plan, or the subscription's private copy when plan_overrides were given. */
  plan_id: string;
  /** The public plan's code (a private copy keeps its parent's code). */
  plan_code: string;
  overridden: boolean;
  name: string | null;
  status: SubscriptionStatus;
  billing_time: BillingTimeName;
  subscription_at: Date;
  started_at: Date | null;
  /** First start of any subscription of this external id (trials don't restart on plan changes). */
  initial_started_at: Date | null;
  ending_at: Date | null;
  terminated_at: Date | null;
  canceled_at: Date | null;
  /** When a pending subscription becomes active (its subscription_at, or the downgrade date). */
  activation_at: Date | null;
  previous_subscription_id: string | null;
  previous_plan_code: string | null;
  next_subscription_id: string | null;
  next_plan_code: string | null;
  /** Local date (customer's zone) of a scheduled downgrade. */
  downgrade_plan_date: string | null;
  on_termination_credit_note: string | null;
  on_termination_invoice: string;
  /** Lago's: its usage thresholds are not applied (no progressive invoices); absent on older documents = false */
  progressive_billing_disabled?: boolean;
  /** Lago's: its invoices show no custom section (absent on older documents = false) */
  skip_invoice_custom_sections?: boolean;
  /** The sections its invoices show (Lago's applied_invoice_custom_sections; absent on older documents = none) */
  invoice_custom_sections?: AppliedSection[];
  /** Created for a sandbox organization: its time-driven changes run only when its test clock advances. */
  sandbox?: boolean;
  /** The customer's applicable time zone when subscribed (periods are computed in it). */
  timezone: string;
  created_at: Date;
  updated_at: Date;
}

/**
 * The unique key of a subscription among its organization's: one active and one pending per
 * external id at most; terminated and canceled ones never collide.
 */
export function slotOf(s: Pick<Subscription, "id" | "status" | "external_id">): string {
  return s.status === "active" || s.status === "pending" ? `${s.status}:${s.external_id}` : `closed:${s.id}`;
}
