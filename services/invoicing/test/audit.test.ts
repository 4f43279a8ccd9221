import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Subjects } from "@billing/bus";
import type { RederiveAsk, RederivedChargeData } from "../src/domain/invoice-audit";
import { invoiceAuditHandlers } from "../src/grpc/invoice-audit-handlers";
import type { UsageAuditPeer } from "../src/peers/usage-audit";
import { customerView, planView, startInvoicingHarness, subscriptionView, type InvoicingHarness } from "./harness";
import { UNIT_PRICE_CENTS } from "./peer-stand-ins";

// GET /invoices/{id}/audit's invoicing half through the wired service on the real MongoDB and
// NATS: an invoice billed by a billing run keeps each charge fee's snapshot and read instant, and
// the audit compares the usage service's re-derivation (a stand-in here) with what was stored.
let h: InvoicingHarness;
beforeAll(async () => {
  h = await startInvoicingHarness("invoicing_audit");
});
afterAll(async () => {
  await h?.close();
});

/** The usage service's re-derivation, as a test sets it: `units` per call, and what it was asked. */
function usageAudit(units: () => number, late = 0) {
  const asked: Array<{ organizationId: string; ask: RederiveAsk }> = [];
  const peer: UsageAuditPeer = {
    rederive: async (organizationId, ask) => {
      asked.push({ organizationId, ask });
      return ask.snapshots.map((): RederivedChargeData => ({
        fees: [{ charge_filter_index: null, grouped_by: {}, true_up: false, units: `${units()}.0`, events_count: units(), amount_cents: units() * UNIT_PRICE_CENTS, precise_amount_cents: `${units() * UNIT_PRICE_CENTS}.0`, persistable: units() > 0 }],
        events_read: units() + late, late_events_count: late, late_events: [],
      }));
    },
    close: () => undefined,
  };
  return { peer, asked };
}

async function billedInvoice() {
  const org = randomUUID();
  const customer = customerView();
  const plan = planView();
  const subscription = subscriptionView(customer, plan, { started_at: "2024-01-01T00:00:00.000Z", subscription_at: "2024-01-01T00:00:00.000Z", created_at: "2024-01-01T00:00:00.000Z" });
  await h.publishCustomer(org, customer, "2024-01-01T00:00:00.000Z");
  await h.caughtUp();
  await h.publishSubscription(Subjects.catalog.subscriptionStarted, org, { subscription, plan }, "2024-01-01T00:00:00.000Z");
  await h.caughtUp();
  h.peers.usage.set(subscription.svc_id, Array.from({ length: 7 }, (_, i) => ({ at: `2024-01-${10 + i}T10:00:00.000Z`, units: 1 })));
  await h.scheduled.call("RunDue", { organization_id: org, at: "2024-02-01T00:00:00.000Z" });
  const { invoices } = await h.invoicing.call("ListInvoices", { organization_id: org, page: { page: 1, per_page: 10 } });
  expect(invoices).toHaveLength(1);
  return { org, invoice: invoices[0]!, subscription };
}

const audit = async (peer: UsageAuditPeer, org: string, id: string) =>
  JSON.parse((await invoiceAuditHandlers({ ...h.replicas[0]!.deps, usageAudit: peer }).AuditInvoice({ organization_id: org, id }, {} as never)).audit_json);

describe("invoice audit (invoicing)", () => {
  it("asks the usage service with the stored snapshot and read instant, and matches when the raw events agree", async () => {
    const { org, invoice } = await billedInvoice();
    const usage = usageAudit(() => 7, 2);
    const view = await audit(usage.peer, org, invoice.svc_id);
    expect(usage.asked).toHaveLength(1);
    expect(usage.asked[0]!.organizationId).toBe(org);
    expect(usage.asked[0]!.ask.billedThrough?.toISOString()).toBe("2024-02-01T00:00:00.000Z"); // the billing run's instant, stored on the fee
    expect(JSON.parse(usage.asked[0]!.ask.snapshots[0]!.snapshotJson)).toMatchObject({ charge: { svc_id: "ch_calls" }, read_through_seq: 42 });
    expect(view).toMatchObject({ svc_invoice_id: invoice.svc_id, match: true, mismatches: [], late_events_count: 2, fees_amount_cents: { invoiced: 350, recomputed: 350 } });
    expect(view.fees.map((f: { fee_type: string; derivation: string; match: boolean | null }) => [f.fee_type, f.derivation, f.match])).toEqual([
      ["subscription", "not_derived_from_events", null], ["charge", "raw_events", true],
    ]);
  });

  it("names the fee and why when the raw events disagree", async () => {
    const { org, invoice } = await billedInvoice();
    const view = await audit(usageAudit(() => 8).peer, org, invoice.svc_id);
    expect(view.match).toBe(false);
    const charge = invoice.fees.find((f) => f.item!.type === "charge")!;
    expect(view.mismatches).toEqual([{ svc_fee_id: charge.svc_id, svc_charge_id: "ch_calls", reason: "units invoiced 7.0, recomputed 8.0; events_count invoiced 7, recomputed 8; amount_cents invoiced 350, recomputed 400" }]);
  });

  it("answers another organization's invoice as not found, asking nothing", async () => {
    const { invoice } = await billedInvoice();
    const usage = usageAudit(() => 7);
    await expect(audit(usage.peer, randomUUID(), invoice.svc_id)).rejects.toMatchObject({ code: "invoice_not_found" });
    expect(usage.asked).toHaveLength(0);
  });
});
