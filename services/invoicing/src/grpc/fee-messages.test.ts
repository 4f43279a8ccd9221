import { describe, expect, it } from "vitest";
import type { TaxViewData } from "@billing/contracts";
import { advanceFeeDraft, advanceFeeInvoice, type AdvanceFeeRecord } from "../domain/advance-fees";
import { invoicingTerms } from "../domain/invoicing-terms";
import { customerFixture, pricedAdvanceFeeFixture } from "../domain/test-fixtures";
import { feeReadMessage } from "./fee-messages";

// 10.00 a call, taxed 20 % by its charge
const priced = pricedAdvanceFeeFixture({
  metric: { svc_id: "bm_1", code: "calls", name: "Calls", description: null, aggregation_type: "count_agg" },
  units: "1.0",
  amount_cents: 1_000,
  precise_amount_cents: "1000.0",
  precise_unit_amount: "10.0",
  properties: { amount: "10" },
  charge_taxes: [{ svc_id: "t", code: "vat", name: "VAT", rate: 20, description: null } as unknown as TaxViewData],
});

describe("an invoiceable pay-in-advance fee as GET /fees shows it", () => {
  it("names its own invoice from the start: the same before that invoice's document is written and once it is", () => {
    const customer = customerFixture();
    const now = new Date("2024-03-10T09:00:01.000Z");
    const invoice = advanceFeeInvoice({
      fee: priced,
      draft: advanceFeeDraft(priced, customer, []),
      customer: { id: "cus_1", customer },
      entity: null,
      terms: invoicingTerms(customer, null),
      sandbox: false,
      now,
    });
    const record: AdvanceFeeRecord = {
      id: "fee_1",
      organization_id: "org_1",
      customer_id: "cus_1",
      external_customer_id: "acme",
      subscription_id: "sub_1",
      external_subscription_id: "s1",
      billable_metric_code: "calls",
      currency: "EUR",
      fee: invoice.fees[0]!,
      invoice_id: invoice.id,
      event_transaction_id: "tx_1",
      payment_status: "pending",
      succeeded_at: null,
      failed_at: null,
      refunded_at: null,
      created_at: now,
      updated_at: now,
      revision: 0,
    };
    const before = feeReadMessage({ fee: record.fee, invoice: null, record });
    const after = feeReadMessage({ fee: invoice.fees[0]!, invoice, record });
    expect(before.svc_invoice_id).toBe(invoice.id);
    expect(before).toEqual(after);
  });
});
