import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Subjects } from "@billing/bus";
import type { CatalogMessages } from "@billing/contracts";
import { waitFor } from "@billing/testkit";
import { voidInvoice } from "../src/use-cases/invoices/void-invoice";
import { finalizeOpenInvoice } from "../src/use-cases/invoices/finalize-open-invoice";
import { customerView, planView, startInvoicingHarness, subscriptionView, type InvoicingHarness } from "./harness";

// A voided invoice gives back what it consumed (Lago's Invoices::VoidService): its coupon credits
// always, its prepaid credits only without a credit note. Asked right after the void, and again by
// the consumer of invoice.voided when that failed (a crash, a peer down): nothing is lost, and the
// owners (catalog, wallet service) give each back once whatever the repetitions.
let h: InvoicingHarness;

beforeAll(async () => {
  h = await startInvoicingHarness("invoicing_void_restores", { replicas: 2 });
});

afterAll(async () => {
  await h?.close();
});

const noGrace = {
  invoice_grace_period: null,
  subscription_invoice_issuing_date_anchor: null,
  subscription_invoice_issuing_date_adjustment: null,
};

/** A customer with a 100.00 plan in arrears and a 5.00 coupon used once; its February invoice finalized with the coupon's credit. */
async function februaryWithCoupon() {
  const org = randomUUID();
  const plan = planView();
  const customer = customerView({ billing_configuration: noGrace });
  await h.publishCustomer(org, customer, "2024-01-01T00:00:00.000Z");
  await h.publishSubscription(
    Subjects.catalog.subscriptionStarted,
    org,
    { subscription: subscriptionView(customer, plan), plan },
    "2024-01-01T00:00:00.000Z",
  );
  await h.caughtUp();
  const coupon: CatalogMessages.AppliedCoupon = {
    svc_id: randomUUID(),
    svc_coupon_id: randomUUID(),
    coupon_code: "welcome",
    coupon_name: "Welcome",
    svc_customer_id: customer.svc_id,
    external_customer_id: "x",
    status: "active",
    frequency: "once",
    created_at: "2024-01-01T00:00:00.000Z",
    coupon_status: "active",
    coupon_type: "fixed_amount",
    amount_cents: 500,
    amount_cents_remaining: 500,
    amount_currency: "EUR",
    plan_codes: [],
    billable_metric_codes: [],
    credits: [],
  };
  h.peers.coupons.set(customer.svc_id, [coupon]);
  await h.scheduled.call("RunDue", { organization_id: org, at: "2024-02-01T00:00:00.000Z" });
  const deps = h.replicas[0]!.deps;
  const [invoice] = (await deps.invoices.list(org, {}, { page: 1, perPage: 10 })).items;
  h.clock.set("2024-02-01T00:00:00Z");
  const february =
    invoice!.status === "finalized" ? invoice! : (await finalizeOpenInvoice(deps, invoice!.id, { refresh: false }))!;
  expect(february).toMatchObject({
    status: "finalized",
    amounts: expect.objectContaining({ coupons_amount_cents: 500, total_amount_cents: 9_500 }),
  });
  return { org, deps, february, coupon };
}

describe("voids give back what the invoice consumed", () => {
  it("asks the catalog for the coupon's credit back at once, the invoice voided once however many replicas void it", async () => {
    const { org, february, coupon } = await februaryWithCoupon();
    const outcomes = await Promise.allSettled(
      h.replicas.flatMap((r) =>
        [0, 1].map(() =>
          voidInvoice(r.deps, org, february.id, { generate_credit_note: false, credit_amount: 0, refund_amount: 0 }),
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(
      outcomes.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason.code),
    ).toEqual(["not_voidable", "not_voidable", "not_voidable"]);
    expect(h.peers.recredits.asked).toContain(`coupon|${coupon.svc_id}|${february.id}`);
    // no prepaid credits on it: the wallets are not asked
    expect(h.peers.recredits.asked).not.toContain(`wallets|${february.id}`);
    expect(await h.replicas[1]!.deps.invoices.find(org, february.id)).toMatchObject({
      status: "voided",
      voided_with_credit_note: false,
    });
  });

  it("gives back from the invoice.voided consumer what the void could not (the catalog down at that moment)", async () => {
    const { org, deps, february, coupon } = await februaryWithCoupon();
    h.peers.recredits.refuseFirst = 1;
    const voided = await voidInvoice(deps, org, february.id, {
      generate_credit_note: true,
      credit_amount: 0,
      refund_amount: 0,
    });
    expect(voided.status).toBe("voided");
    await waitFor(() => h.peers.recredits.asked.includes(`coupon|${coupon.svc_id}|${february.id}`) || undefined, {
      what: "the consumer's give-back",
      timeoutMs: 15_000,
    });
    await h.caughtUp();
    expect(h.peers.recredits.asked).not.toContain(`wallets|${february.id}`);
  });
});
