import { describe, expect, it } from "vitest";
import { composeCreditNote, type CreditNoteRequest } from "./credit-note";
import { finalizedInvoiceFixture } from "./document-fixtures";
import type { Invoice } from "./invoice";
import { customerFixture } from "./test-fixtures";

// Credit notes on a credit (wallet top-up) invoice, Lago's rules (CreditNotes::CreateService and
// ValidateService): only while the invoice's wallet is active; paid, a refund of at most the
// credits left in the wallet and never a credit; unpaid, only an offset of its whole amount.
const topUp = (overrides: Partial<Invoice> = {}): Invoice => {
  const base = finalizedInvoiceFixture();
  const fee = {
    ...base.fees[1]!,
    id: "fee_credit",
    fee_type: "credit" as const,
    amount_cents: 2_000,
    precise_amount_cents: "2000.0",
    taxes_amount_cents: 0,
    taxes_precise_amount_cents: "0",
    taxes_rate: 0,
    total_amount_cents: 2_000,
    applied_taxes: [],
    precise_coupons_amount_cents: "0",
    sub_total_excluding_taxes_precise_amount_cents: "2000.0",
  };
  return finalizedInvoiceFixture({
    invoice_type: "credit",
    wallet_transaction_id: "wt_1",
    fees: [fee],
    credits: [],
    applied_taxes: [],
    payment_status: "succeeded",
    total_paid_amount_cents: 2_000,
    amounts: {
      fees_amount_cents: 2_000,
      progressive_billing_credit_amount_cents: 0,
      coupons_amount_cents: 0,
      sub_total_excluding_taxes_amount_cents: 2_000,
      taxes_amount_cents: 0,
      taxes_rate: 0,
      sub_total_including_taxes_amount_cents: 2_000,
      credit_notes_amount_cents: 0,
      prepaid_credit_amount_cents: 0,
      total_amount_cents: 2_000,
    },
    ...overrides,
  });
};
const ctx = (creditWallet: { active: boolean; balance_cents: number } | null) => ({
  sequence: 1,
  now: new Date("2024-02-02T00:00:00Z"),
  issuing_date: "2024-02-02",
  customer: customerFixture(),
  creditWallet,
});
const ask = (parts: Partial<CreditNoteRequest>, amount: number): CreditNoteRequest => ({
  credit_amount_cents: 0,
  refund_amount_cents: 0,
  offset_amount_cents: 0,
  items: [{ fee_id: "fee_credit", amount_cents: amount }],
  ...parts,
});
const refusal = (f: () => unknown) => {
  try {
    f();
    return null;
  } catch (err) {
    return {
      kind: (err as { kind: string }).kind,
      code: (err as { code: string }).code,
      details: (err as { details?: unknown }).details,
    };
  }
};

describe("credit notes on a credit invoice", () => {
  it("refunds a paid top-up within the credits left in its wallet", () => {
    const note = composeCreditNote(
      topUp(),
      [],
      ask({ refund_amount_cents: 1_200 }, 1_200),
      ctx({ active: true, balance_cents: 1_500 }),
    );
    expect(note).toMatchObject({
      refund_amount_cents: 1_200,
      credit_amount_cents: 0,
      total_amount_cents: 1_200,
      refund_status: "pending",
      taxes_amount_cents: 0,
    });
    expect(
      refusal(() =>
        composeCreditNote(
          topUp(),
          [],
          ask({ refund_amount_cents: 1_600 }, 1_600),
          ctx({ active: true, balance_cents: 1_500 }),
        ),
      ),
    ).toMatchObject({ details: { refund_amount_cents: ["higher_than_remaining_invoice_amount"] } });
  });

  it("never credits it, and takes nothing once its wallet ended (Lago's codes)", () => {
    expect(
      refusal(() =>
        composeCreditNote(
          topUp(),
          [],
          ask({ credit_amount_cents: 500 }, 500),
          ctx({ active: true, balance_cents: 2_000 }),
        ),
      ),
    ).toMatchObject({ details: { credit_amount_cents: ["cannot_credit_invoice"] } });
    expect(
      refusal(() =>
        composeCreditNote(
          topUp(),
          [],
          ask({ refund_amount_cents: 500 }, 500),
          ctx({ active: false, balance_cents: 2_000 }),
        ),
      ),
    ).toMatchObject({ kind: "not_allowed", code: "invalid_type_or_status" });
    expect(
      refusal(() => composeCreditNote(topUp(), [], ask({ refund_amount_cents: 500 }, 500), ctx(null))),
    ).toMatchObject({ code: "invalid_type_or_status" });
  });

  it("unpaid, takes only an offset of its whole amount", () => {
    const unpaid = topUp({ payment_status: "pending", total_paid_amount_cents: 0 });
    expect(
      refusal(() =>
        composeCreditNote(unpaid, [], ask({ refund_amount_cents: 500 }, 500), ctx({ active: true, balance_cents: 0 })),
      ),
    ).toMatchObject({ code: "invalid_type_or_status" });
    expect(
      refusal(() =>
        composeCreditNote(unpaid, [], ask({ offset_amount_cents: 500 }, 500), ctx({ active: true, balance_cents: 0 })),
      ),
    ).toMatchObject({ details: { offset_amount_cents: ["not_equal_to_total_amount"] } });
    expect(
      composeCreditNote(
        unpaid,
        [],
        ask({ offset_amount_cents: 2_000 }, 2_000),
        ctx({ active: true, balance_cents: 0 }),
      ),
    ).toMatchObject({ offset_amount_cents: 2_000, total_amount_cents: 2_000 });
  });
});
