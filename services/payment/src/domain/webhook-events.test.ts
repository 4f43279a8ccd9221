import { describe, expect, it } from "vitest";
import { Subjects } from "@billing/codes";
import { WEBHOOK_SUBJECTS, WEBHOOK_TYPES, webhookEventsOf, webhookTypesOf } from "./webhook-events";

const webhookEventOf = (subject: string, data: Record<string, unknown>) => webhookEventsOf(subject, data)[0] ?? null;

describe("credit note and void webhooks", () => {
  it("credit_note.created carries the credit note, read again from invoicing when delivered", () => {
    const note = { svc_id: "cn1", number: "INV-001-CN001" };
    expect(webhookEventOf(Subjects.invoicing.creditNoteCreated, { credit_note: note })).toEqual({
      webhookType: "credit_note.created",
      objectType: "credit_note",
      ref: { kind: "credit_note", id: "cn1" },
      objectId: "cn1",
      view: note,
    });
  });

  it("invoice.voided carries the invoice", () => {
    expect(webhookEventOf(Subjects.invoicing.invoiceVoided, { invoice: { svc_id: "i1" } })).toMatchObject({
      webhookType: "invoice.voided",
      objectType: "invoice",
      ref: { kind: "invoice", id: "i1" },
    });
  });

  it("a credit note's later changes and refund requests send no webhook (Lago has none for them)", () => {
    expect(webhookEventOf(Subjects.invoicing.creditNoteUpdated, { credit_note: { svc_id: "cn1" } })).toBeNull();
    expect(webhookEventOf(Subjects.invoicing.creditNoteRefundRequested, { credit_note: { svc_id: "cn1" } })).toBeNull();
    expect(
      WEBHOOK_TYPES.has("credit_note.created") && WEBHOOK_SUBJECTS.includes(Subjects.invoicing.creditNoteCreated),
    ).toBe(true);
  });

  it("a refused refund is Lago's credit_note.refund_failure, its payload the event's refund error object", () => {
    const error = {
      svc_credit_note_id: "cn1",
      svc_customer_id: "c1",
      external_customer_id: "acme",
      payment_provider: "sandbox",
      provider_error: { message: "no", error_code: null },
    };
    expect(webhookEventOf(Subjects.payment.refundFailed, { credit_note_payment_provider_refund_error: error })).toEqual(
      {
        webhookType: "credit_note.refund_failure",
        objectType: "credit_note_payment_provider_refund_error",
        ref: { kind: "event_view" },
        objectId: "cn1",
        view: error,
      },
    );
  });

  it("a credit note's first PDF is credit_note.generated, carrying the credit note", () => {
    expect(webhookEventOf(Subjects.invoicing.creditNoteGenerated, { credit_note: { svc_id: "cn1" } })).toMatchObject({
      webhookType: "credit_note.generated",
      objectType: "credit_note",
      ref: { kind: "credit_note", id: "cn1" },
    });
  });

  it("a deleted draft is invoice.deleted and a one-off invoice invoice.one_off_created, each carrying the invoice", () => {
    expect(webhookEventOf(Subjects.invoicing.invoiceDeleted, { invoice: { svc_id: "i1" } })).toMatchObject({
      webhookType: "invoice.deleted",
      objectType: "invoice",
      ref: { kind: "invoice", id: "i1" },
    });
    expect(webhookEventOf(Subjects.invoicing.invoiceOneOffCreated, { invoice: { svc_id: "i2" } })).toMatchObject({
      webhookType: "invoice.one_off_created",
      objectType: "invoice",
      ref: { kind: "invoice", id: "i2" },
    });
    expect(webhookEventOf(Subjects.invoicing.invoiceGenerated, { invoice: { svc_id: "i3" } })).toMatchObject({
      webhookType: "invoice.generated",
      objectType: "invoice",
      ref: { kind: "invoice", id: "i3" },
    });
    expect(WEBHOOK_TYPES.has("invoice.generated")).toBe(true);
  });

  it("a message of pay-in-advance fees is one fee.created per fee, each with the event id its one-fee message had", () => {
    const events = webhookEventsOf(Subjects.invoicing.advanceFeesCreated, {
      fees: [{ svc_id: "f1" }, { svc_id: "f2" }],
    });
    expect(events.map((e) => [e.webhookType, e.objectType, e.ref, e.eventName])).toEqual([
      ["fee.created", "fee", { kind: "fee", id: "f1" }, "advance_fee.created|f1"],
      ["fee.created", "fee", { kind: "fee", id: "f2" }, "advance_fee.created|f2"],
    ]);
    expect(webhookTypesOf(Subjects.invoicing.advanceFeesCreated)).toEqual(["fee.created"]);
    expect(webhookTypesOf(Subjects.invoicing.creditNoteUpdated)).toEqual([]);
    expect(WEBHOOK_SUBJECTS).toContain(Subjects.invoicing.advanceFeesCreated);
  });
});
