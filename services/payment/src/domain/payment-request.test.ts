import { describe, expect, it } from "vitest";
import { amountDue, invoiceProblems, statusOfCharges, type RequestedInvoice } from "./payment-request";

const invoice = (id: string, fields: Partial<RequestedInvoice> = {}): RequestedInvoice => ({
  id,
  customer_id: "cus",
  status: "finalized",
  payment_status: "pending",
  payment_overdue: true,
  currency: "EUR",
  total_due_amount_cents: 100,
  ...fields,
});
const found = (...invoices: RequestedInvoice[]) => new Map(invoices.map((i) => [i.id, i]));

describe("invoiceProblems", () => {
  it("accepts the customer's overdue, unpaid, finalized invoices in one currency", () => {
    expect(
      invoiceProblems("cus", ["a", "b"], found(invoice("a"), invoice("b", { payment_status: "failed" }))),
    ).toBeNull();
  });
  it("treats another customer's invoice as unknown", () => {
    expect(invoiceProblems("cus", ["a", "b"], found(invoice("a"), invoice("b", { customer_id: "other" })))).toEqual({
      svc_invoice_ids: ["invoice_not_found"],
    });
    expect(invoiceProblems("cus", ["a", "z"], found(invoice("a")))).toEqual({ svc_invoice_ids: ["invoice_not_found"] });
  });
  it("refuses a draft, a paid invoice, one not overdue, and mixed currencies", () => {
    expect(invoiceProblems("cus", ["a"], found(invoice("a", { status: "draft" })))).toEqual({
      svc_invoice_ids: ["invoices_not_ready_for_payment_processing"],
    });
    expect(invoiceProblems("cus", ["a"], found(invoice("a", { payment_status: "succeeded" })))).toEqual({
      svc_invoice_ids: ["invoices_not_ready_for_payment_processing"],
    });
    expect(invoiceProblems("cus", ["a"], found(invoice("a", { payment_overdue: false })))).toEqual({
      svc_invoice_ids: ["invoices_not_overdue"],
    });
    expect(invoiceProblems("cus", ["a", "b"], found(invoice("a"), invoice("b", { currency: "USD" })))).toEqual({
      base: ["invoices_have_different_currencies"],
    });
  });
});

describe("amountDue and statusOfCharges", () => {
  it("sums what is still due", () => {
    expect(amountDue([{ total_due_amount_cents: 600 }, { total_due_amount_cents: 1_000 }])).toBe(1_600);
  });
  it("succeeds when every invoice is paid, fails on a decline once nothing waits, else stays pending", () => {
    expect(statusOfCharges(["succeeded", "succeeded"])).toBe("succeeded");
    expect(statusOfCharges(["succeeded", "failed"])).toBe("failed");
    expect(statusOfCharges(["processing", "failed"])).toBe("pending");
    expect(statusOfCharges([null])).toBe("pending");
    expect(statusOfCharges([])).toBe("pending");
  });
});
