import { afterAll, beforeAll, it } from "vitest";
import { startE2E, type E2E } from "../support/platform";
import { api } from "../support/api";
import { openapiErrors } from "../support/openapi";
let e2e: E2E; let as: ReturnType<typeof api>;
beforeAll(async () => { e2e = await startE2E("probe"); as = api(e2e.platform.baseUrl, e2e.organization("P").api_key); });
afterAll(async () => { await e2e?.stop(); });
const show = async (label: string, p: Promise<{ status: number; body: any }>, schema?: string) => {
  const r = await p; console.log(label, r.status, JSON.stringify(r.body).slice(0, 600), schema && r.status === 200 ? openapiErrors(schema, r.body) : "");
  return r;
};
it("probe", async () => {
  for (const r of ["taxes", "billable_metrics", "add_ons", "coupons", "plans"]) await show(`empty ${r}`, as("GET", `/${r}`));
  await show("tax", as("POST", "/taxes", { tax: { name: "VAT", code: "vat", rate: "20", applied_to_organization: true } }), "Tax");
  await show("tax2", as("POST", "/taxes", { tax: { name: "VAT2", code: "vat2", rate: "10" } }), "Tax");
  await show("page5", as("GET", "/taxes?page=5&per_page=1"), "TaxesPaginated");
  await show("page0", as("GET", "/taxes?page=0&per_page=0"), "TaxesPaginated");
  await show("tax upd null desc", as("PUT", "/taxes/vat", { tax: { description: null, applied_to_organization: false } }), "Tax");
  const bm = await show("bm count", as("POST", "/billable_metrics", { billable_metric: { name: "C", code: "c", aggregation_type: "count_agg", field_name: null, rounding_function: "round", rounding_precision: null, expression: null, description: null } }), "BillableMetric");
  await show("bm weighted", as("POST", "/billable_metrics", { billable_metric: { name: "W", code: "w", aggregation_type: "weighted_sum_agg", field_name: "x", weighted_interval: "seconds", filters: [] } }), "BillableMetric");
  await show("bm upd", as("PUT", "/billable_metrics/c", { billable_metric: { filters: [{ key: "k", values: ["a"] }] } }), "BillableMetric");
  await show("bm eval", as("POST", "/billable_metrics/evaluate_expression", { expression: "1+1", event: { code: "c", timestamp: 1, properties: {} } }));
  await show("addon null", as("POST", "/add_ons", { add_on: { name: "A", code: "a", amount_cents: 1, amount_currency: "USD", invoice_display_name: null, description: null, tax_codes: [] } }), "AddOn");
  await show("addon upd", as("PUT", "/add_ons/a", { add_on: { amount_cents: 0 } }), "AddOn");
  await show("addon del", as("DELETE", "/add_ons/a"), "AddOn");
  await show("coupon nulls", as("POST", "/coupons", { coupon: { name: "C", code: "c", coupon_type: "fixed_amount", amount_cents: 100, amount_currency: "USD", percentage_rate: null, reusable: true, frequency: "forever", frequency_duration: null, expiration: "no_expiration", expiration_at: null, applies_to: { plan_codes: null, billable_metric_codes: [] } } }), "Coupon");
  await show("coupon pct", as("POST", "/coupons", { coupon: { name: "P", code: "p", coupon_type: "percentage", percentage_rate: "12.5", frequency: "once", expiration: "time_limit", expiration_at: "2099-08-08T23:59:59Z", applies_to: { billable_metric_codes: ["c"] } } }), "Coupon");
  await show("coupon del", as("DELETE", "/coupons/p"), "Coupon");
  await show("coupons list", as("GET", "/coupons"), "CouponsPaginated");
  const id = bm.body.billable_metric.svc_id;
  const plan = await show("plan", as("POST", "/plans", { plan: { name: "P", code: "p", interval: "yearly", amount_cents: 0, amount_currency: "USD", pay_in_advance: false, invoice_display_name: null, description: null, trial_period: null, bill_charges_monthly: true, tax_codes: ["vat"], minimum_commitment: { amount_cents: 100, invoice_display_name: "min", tax_codes: ["vat2"] }, usage_thresholds: [{ threshold_display_name: "t", amount_cents: 1000, recurring: true }],
    charges: [{ billable_metric_id: id, charge_model: "percentage", invoiceable: false, pay_in_advance: true, regroup_paid_fees: "invoice", invoice_display_name: "Setup", min_amount_cents: 0, properties: { rate: "1", fixed_amount: "0.5", free_units_per_events: 5, free_units_per_total_aggregation: "500" } },
      { billable_metric_id: id, charge_model: "standard", properties: {}, filters: [] }],
    fixed_charges: [] } }), "Plan");
  const chargeId = plan.body.plan?.charges?.[0]?.svc_id;
  await show("plan upd", as("PUT", "/plans/p", { plan: { name: "P2", charges: [{ id: chargeId, billable_metric_id: id, charge_model: "percentage", properties: { rate: "2" } }] } }), "Plan");
  await show("plan get", as("GET", "/plans/p"), "Plan");
  await show("plans", as("GET", "/plans?per_page=1&page=1"), "PlansPaginated");
  await show("plan del", as("DELETE", "/plans/p"), "Plan");
  await show("tax del", as("DELETE", "/taxes/vat"), "Tax");
  await show("bm del", as("DELETE", "/billable_metrics/c"), "BillableMetric");
});
