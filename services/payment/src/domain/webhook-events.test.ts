import { describe, expect, it } from "vitest";
import { Subjects } from "@billing/bus";
import { WEBHOOK_SUBJECTS, WEBHOOK_TYPES, webhookEventOf } from "./webhook-events";

describe("credit note and void webhooks", () => {
  it("credit_note.created carries the credit note, read again from invoicing when delivered", () => {
    const note = { svc_id: "cn1", number: "INV-001-CN001" };
    expect(webhookEventOf(Subjects.invoicing.creditNoteCreated, { credit_note: note })).toEqual({
      webhookType: "credit_note.created", objectType: "credit_note", ref: { kind: "credit_note", id: "cn1" }, objectId: "cn1", view: note,
    });
  });

  it("invoice.voided carries the invoice", () => {
    expect(webhookEventOf(Subjects.invoicing.invoiceVoided, { invoice: { svc_id: "i1" } })).toMatchObject({ webhookType: "invoice.voided", objectType: "invoice", ref: { kind: "invoice", id: "i1" } });
  });

  it("a credit note's later changes and refund requests send no webhook (Lago has none for them)", () => {
    expect(webhookEventOf(Subjects.invoicing.creditNoteUpdated, { credit_note: { svc_id: "cn1" } })).toBeNull();
    expect(webhookEventOf(Subjects.invoicing.creditNoteRefundRequested, { credit_note: { svc_id: "cn1" } })).toBeNull();
    expect(WEBHOOK_TYPES.has("credit_note.created") && WEBHOOK_SUBJECTS.includes(Subjects.invoicing.creditNoteCreated)).toBe(true);
  });
});
