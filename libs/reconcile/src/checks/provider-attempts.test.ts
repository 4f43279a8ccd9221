import { describe, expect, it } from "vitest";
import { ctx, customer, invoice, payment } from "../test-fixtures";
import { checkProviderAttempts } from "./provider-attempts";

const withProvider = customer({
  billing_configuration: { payment_provider: "sandbox", provider_customer_id: "4242424242424242" },
});

describe("provider_payment_attempt", () => {
  it("finds a due invoice of a customer with a provider that was charged clean, even by a failed attempt", () => {
    const out = checkProviderAttempts(
      ctx,
      [invoice()],
      [payment({ type: "provider", payment_status: "failed", attempt: 1 })],
      [withProvider],
    );
    expect(out).toMatchObject({ breaches: [], checked: 1 });
  });

  it("reports a due invoice of a customer with a provider that was never charged, with the invoice and the customer", () => {
    const out = checkProviderAttempts(
      ctx,
      [invoice()],
      [payment({ type: "manual", amount_cents: 1_000 })],
      [withProvider],
    );
    expect(out.breaches).toHaveLength(1);
    expect(out.breaches[0]).toMatchObject({
      invariant: "provider_payment_attempt",
      code: "no_provider_attempt",
      records: [
        { type: "invoice", id: "i1" },
        { type: "customer", id: "c1", fields: { payment_provider: "sandbox" } },
      ],
    });
  });

  it("asks nothing of a customer without a provider, a paid invoice, one with nothing due, an advance_charges invoice or a draft", () => {
    const none = [
      checkProviderAttempts(ctx, [invoice()], [], [customer()]),
      checkProviderAttempts(ctx, [invoice({ payment_status: "succeeded" })], [], [withProvider]),
      checkProviderAttempts(ctx, [invoice({ total_paid_amount_cents: 10_000 })], [], [withProvider]),
      checkProviderAttempts(ctx, [invoice({ invoice_type: "advance_charges" })], [], [withProvider]),
      checkProviderAttempts(ctx, [invoice({ status: "draft" })], [], [withProvider]),
      checkProviderAttempts(ctx, [invoice()], [], [{ ...withProvider, deleted_at: ctx.now }]),
    ];
    expect(none.flatMap((o) => o.breaches)).toEqual([]);
  });

  it("leaves an invoice finalized within the grace period for the next run", () => {
    const out = checkProviderAttempts(
      ctx,
      [invoice({ updated_at: new Date(ctx.now.getTime() - 10_000) })],
      [],
      [withProvider],
    );
    expect(out).toMatchObject({ breaches: [], skipped: 1 });
    expect(
      checkProviderAttempts(
        { ...ctx, graceMs: 5_000 },
        [invoice({ updated_at: new Date(ctx.now.getTime() - 10_000) })],
        [],
        [withProvider],
      ).breaches,
    ).toHaveLength(1);
  });
});
