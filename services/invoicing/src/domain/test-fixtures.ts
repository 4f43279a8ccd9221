import type { AdvanceFeeData, CustomerViewData, PlanViewData, SubscriptionViewData } from "@billing/contracts";
import type { SubscriptionCopy } from "./copies";

/** Views as the producers publish them, for the domain's unit tests. */
export function planFixture(overrides: Partial<PlanViewData> = {}): PlanViewData {
  return {
    svc_id: "plan_1", name: "Starter", code: "starter", description: null, invoice_display_name: null, interval: "monthly", amount_cents: 3_100,
    amount_currency: "EUR", trial_period: 0, pay_in_advance: false, bill_charges_monthly: null, bill_fixed_charges_monthly: null, taxes: [],
    minimum_commitment: null, usage_thresholds: [], charges: [], fixed_charges: [], created_at: "2023-12-01T00:00:00.000Z",
    updated_at: "2023-12-01T00:00:00.000Z", deleted_at: null,
    ...overrides,
  };
}

export function customerFixture(overrides: Partial<CustomerViewData> = {}): CustomerViewData {
  return {
    svc_id: "cus_1", external_id: "acme", sequential_id: 7, slug: null, billing_entity_code: "default", name: "Acme", currency: "EUR", country: null,
    email: null, timezone: null, applicable_timezone: "UTC", net_payment_term: null, finalize_zero_amount_invoice: "inherit", taxes: [],
    billing_configuration: { invoice_grace_period: null, subscription_invoice_issuing_date_anchor: null, subscription_invoice_issuing_date_adjustment: null },
    created_at: "2023-12-01T00:00:00.000Z", updated_at: "2023-12-01T00:00:00.000Z", deleted_at: null,
    ...overrides,
  };
}

export function copyFixture(sub: Partial<SubscriptionViewData> = {}, plan: Partial<PlanViewData> = {}): SubscriptionCopy {
  return {
    id: "sub_1", organization_id: "org_1", sandbox: true, version: 1,
    next_billing_at: null, next_billing_reason: null, last_billed_at: null, last_billed_reason: null,
    plan: planFixture(plan),
    subscription: {
      svc_id: "sub_1", external_id: "s1", svc_customer_id: "cus_1", external_customer_id: "acme", name: null, plan_code: "starter", plan_id: "plan_1",
      status: "active", billing_time: "calendar", subscription_at: "2024-01-15T09:00:00.000Z", started_at: "2024-01-15T09:00:00.000Z", ending_at: null,
      terminated_at: null, canceled_at: null, trial_ended_at: null, previous_plan_code: null, next_plan_code: null, downgrade_plan_date: null,
      on_termination_credit_note: null, on_termination_invoice: "generate", created_at: "2024-01-15T09:00:00.000Z", timezone: "UTC",
      ...sub,
    },
  };
}

/** A priced pay-in-advance fee as the usage service answers it: 12.00 for one seat, invoiceable, no taxes of its own. */
export function pricedAdvanceFeeFixture(overrides: Partial<AdvanceFeeData> = {}): AdvanceFeeData {
  return {
    id: "fee_1", organization_id: "org_1", event_transaction_id: "tx_1", event_timestamp: "2024-03-10T23:30:00.000Z",
    subscription_id: "sub_1", external_subscription_id: "s1", customer_id: "cus_1", external_customer_id: "acme", plan_id: "plan_1", plan_code: "starter",
    charge_id: "ch_1", charge_filter_index: null, filter: null,
    metric: { svc_id: "bm_1", code: "seats", name: "Seats", description: null, aggregation_type: "unique_count_agg" },
    charge_model: "standard", invoice_display_name: null, invoiceable: true, regroup_paid_fees: null, prorated: false, currency: "EUR",
    units: "1.0", amount_cents: 1_200, precise_amount_cents: "1200.0", precise_unit_amount: "12.0", amount_details: {}, grouped_by: {},
    properties: { amount: "12" }, charge_taxes: [], plan_taxes: [], from: "2024-03-01T00:00:00.000Z", to: "2024-03-31T23:59:59.999Z", timezone: "UTC",
    event_key: "key_1", event_svc_id: "ev_1", unit_amount_cents: 1_200,
    ...overrides,
  };
}
