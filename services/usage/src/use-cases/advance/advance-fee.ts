import type { TaxViewData } from "@billing/contracts";

/**
 * One fee a stored event created on a pay-in-advance charge (billing-rules §1.12), as the usage
 * service hands it to invoicing: the amounts the pricing library computed, and everything Lago's
 * FeeObject shows of the charge, its filter, the metric and the subscription. Taxes are not
 * applied here: invoicing selects them (charge > plan > customer > billing entity) and applies them.
 */
export interface AdvanceFee {
  /** derived from (organization, event key, charge, filter): the same event and charge always give the same fee */
  id: string;
  organization_id: string;
  event_key: string;
  event_svc_id: string;
  event_transaction_id: string;
  event_timestamp: string;
  subscription_id: string;
  external_subscription_id: string;
  customer_id: string;
  external_customer_id: string;
  plan_id: string;
  plan_code: string;
  charge_id: string;
  charge_filter_index: number | null;
  filter: { values: Record<string, string[]>; invoice_display_name: string | null } | null;
  metric: { svc_id: string; code: string; name: string; description: string | null; aggregation_type: string };
  charge_model: string;
  invoice_display_name: string | null;
  invoiceable: boolean;
  regroup_paid_fees: string | null;
  prorated: boolean;
  currency: string;
  units: string;
  amount_cents: number;
  precise_amount_cents: string;
  unit_amount_cents: number;
  precise_unit_amount: string;
  amount_details: Record<string, unknown>;
  grouped_by: Record<string, string | null>;
  /** the properties it was priced with (the filter's or the charge's) */
  properties: Record<string, unknown>;
  charge_taxes: TaxViewData[];
  plan_taxes: TaxViewData[];
  /** the charges period (ISO instants) */
  from: string;
  to: string;
  timezone: string;
}
