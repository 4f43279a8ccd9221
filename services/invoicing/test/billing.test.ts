import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "mongoose";
import { connectBus, type Bus } from "@billing/bus";
import { atFrozenTime, ManualClock } from "@billing/clock";
import type { CustomerViewData, PlanViewData, SubscriptionViewData } from "@billing/contracts";
import { silentLogger } from "@billing/logger";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName } from "@billing/testkit";
import { billingBoundaryAfter } from "../src/domain/billing-schedule";
import type { BillingEntities } from "../src/peers/billing-entities";
import type { UsagePeer } from "../src/peers/usage";
import { runDueWork } from "../src/use-cases/scheduled-work/run-due-work";
import { wireInvoicing, type InvoicingWiring } from "../src/wiring";

// The invoicing service's billing on the real MongoDB test server and NATS, wired twice (two
// replicas) on one database; the usage and customer services are stand-ins (peers, not storage).
const usage: UsagePeer = {
  // one call at 0.50 per subscription and period, as the usage service would price it
  chargeUsage: async (periods) => periods.map((p) => ({
    subscription_id: p.subscriptionId, found: true,
    fees: [{
      charge_id: "ch_1", billable_metric_id: "bm_1", billable_metric_code: "calls", billable_metric_name: "Calls", aggregation_type: "count_agg",
      charge_model: "standard", grouped_by_json: "{}", true_up: false, units: "1.0", total_aggregated_units: "1.0", events_count: 1,
      amount_cents: 50, precise_amount_cents: "50.0", unit_amount_cents: 50, precise_unit_amount: "0.5", amount_details_json: "{}",
      properties_json: '{"amount":"0.5"}', persistable: true, pay_in_advance: false, invoiceable: true,
    }],
  })),
  close: () => undefined,
};
const entities: BillingEntities = {
  get: async () => ({ code: "default", document_numbering: "per_customer", document_number_prefix: "ACM-1234", invoice_grace_period: 0, net_payment_term: 0, finalize_zero_amount_invoice: true } as never),
  close: () => undefined,
};

let connection: Connection;
let bus: Bus;
const clock = new ManualClock("2024-02-01T00:00:00Z");
let replicas: InvoicingWiring[];

beforeAll(async () => {
  connection = await connectMongo({ url: infraUrls().mongoUrl, dbName: uniqueName("invoicing_billing") });
  bus = await connectBus({ url: infraUrls().natsUrl, name: "invoicing-billing-test" });
  const prefix = uniqueName("inv");
  replicas = [];
  for (let i = 0; i < 2; i++) {
    replicas.push(await wireInvoicing(connection, { bus, clock, logger: silentLogger, usage, billingEntities: entities, durablePrefix: `${prefix}_${i}` }));
  }
  await initModels(connection);
});

afterAll(async () => {
  for (const r of replicas ?? []) await r.stop();
  await connection?.dropDatabase();
  await connection?.close();
  await bus?.close();
});

const plan: PlanViewData = {
  svc_id: "plan_1", name: "Basic", code: "basic", description: null, invoice_display_name: null, interval: "monthly", amount_cents: 1_000,
  amount_currency: "EUR", trial_period: 0, pay_in_advance: false, bill_charges_monthly: null, bill_fixed_charges_monthly: null, taxes: [],
  minimum_commitment: null, usage_thresholds: [],
  charges: [{
    svc_id: "ch_1", svc_billable_metric_id: "bm_1", billable_metric_code: "calls", code: null, charge_model: "standard", pay_in_advance: false,
    invoiceable: true, prorated: false, min_amount_cents: 0, regroup_paid_fees: null, invoice_display_name: null, properties: { amount: "0.5" },
    filters: [], taxes: [], created_at: null,
  }],
  fixed_charges: [], created_at: "2023-12-01T00:00:00.000Z", updated_at: "2023-12-01T00:00:00.000Z", deleted_at: null,
};

async function seed(org: string, n: number) {
  const copies = replicas[0]!.deps.copies;
  for (let i = 0; i < n; i++) {
    const customer = {
      svc_id: `${org}_cus_${i}`, external_id: `c${i}`, sequential_id: i + 1, slug: `ACM-1234-${String(i + 1).padStart(3, "0")}`,
      billing_entity_code: "default", name: null, currency: "EUR", country: null, email: null, timezone: null, applicable_timezone: "UTC",
      net_payment_term: null, finalize_zero_amount_invoice: "inherit", taxes: [],
      billing_configuration: { invoice_grace_period: null, subscription_invoice_issuing_date_anchor: null, subscription_invoice_issuing_date_adjustment: null },
      created_at: "2024-01-01T00:00:00.000Z", updated_at: "2024-01-01T00:00:00.000Z", deleted_at: null,
    } as CustomerViewData;
    await copies.putCustomer({ id: customer.svc_id, organization_id: org, customer, version: 1 });
    const subscription = {
      svc_id: `${org}_sub_${i}`, external_id: `s${i}`, svc_customer_id: customer.svc_id, external_customer_id: `c${i}`, name: null,
      plan_code: "basic", plan_id: "plan_1", status: "active", billing_time: "calendar", subscription_at: "2024-01-01T00:00:00.000Z",
      started_at: "2024-01-01T00:00:00.000Z", ending_at: null, terminated_at: null, canceled_at: null, trial_ended_at: null,
      previous_plan_code: null, next_plan_code: null, downgrade_plan_date: null, on_termination_credit_note: null,
      on_termination_invoice: "generate", created_at: "2024-01-01T00:00:00.000Z", timezone: "UTC",
    } as SubscriptionViewData;
    await copies.putSubscription({
      id: subscription.svc_id, organization_id: org, subscription, plan, sandbox: true, version: 1,
      next_billing_at: billingBoundaryAfter(subscription, plan, new Date(subscription.started_at!)),
    });
  }
}

describe("billing runs", () => {
  it("two replicas billing the same boundary at once write one invoice per customer, numbered once", async () => {
    const org = uniqueName("org");
    await seed(org, 60);
    const at = new Date("2024-02-01T00:00:00Z");
    const done = await Promise.all(replicas.map((r) => atFrozenTime(at, () => runDueWork(r.deps, { organizationId: org }))));
    expect(done.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(60);
    const { items, total } = await replicas[0]!.deps.invoices.list(org, {}, { page: 1, perPage: 1000 });
    expect(total).toBe(60);
    // 1000 base fee + 50 of usage each, finalized, one number per customer
    expect(items.every((i) => i.status === "finalized" && i.view.total_amount_cents === 1_050)).toBe(true);
    expect(new Set(items.map((i) => i.view.number)).size).toBe(60);
    expect(items.every((i) => i.view.number.endsWith("-001"))).toBe(true);
    // a second pass finds nothing left
    expect(await atFrozenTime(at, () => runDueWork(replicas[1]!.deps, { organizationId: org }))).toBe(0);
  });

  it("numbers one customer's invoices gap-free and unique under 20 concurrent finalizations", async () => {
    const numbers = replicas[0]!.deps.numbers;
    const scope = uniqueName("scope");
    const ids = Array.from({ length: 20 }, (_, i) => `${scope}_inv_${i}`);
    // the invoices being finalized (only their ids matter to numbering)
    for (const id of ids) await replicas[0]!.deps.invoices.insert({ id, organization_id: "org", status: "draft" } as never, []);
    const given = await Promise.all(Array.from({ length: 20 }, (_, i) => numbers.allocate(scope, ids[i]!)));
    expect([...given].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // a finalizer retrying after a crash gets the number it was given, not a new one
    expect(await numbers.allocate(scope, ids[19]!)).toBe(given[19]);
    expect(await numbers.allocate(scope, ids[0]!)).toBe(given[0]);
  });

  it("a due subscription of an ordinary organization is billed by the scheduler's pass, never a sandbox one", async () => {
    const org = uniqueName("sandbox_org");
    await seed(org, 1);
    clock.set("2024-03-01T00:00:00Z");
    await runDueWork(replicas[0]!.deps); // the ordinary organizations' pass: this sandbox organization is not in it
    expect((await replicas[0]!.deps.invoices.list(org, {}, { page: 1, perPage: 10 })).total).toBe(0);
  });
});
