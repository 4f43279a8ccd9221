import { describe, expect, it } from "vitest";
import { dayOf, isPaymentOverdue, overdueFrom } from "./payment-overdue";

describe("payment overdue", () => {
  const invoice = { status: "finalized" as const, payment_status: "pending" as const, payment_due_date: "2024-02-15" };

  it("is overdue from the start of the day after its due date, on the organization's clock", () => {
    expect(isPaymentOverdue(invoice, new Date("2024-02-15T23:59:59.999Z"))).toBe(false);
    expect(isPaymentOverdue(invoice, new Date("2024-02-16T00:00:00.000Z"))).toBe(true);
    expect(overdueFrom("2024-02-15")).toEqual(new Date("2024-02-16T00:00:00.000Z"));
    expect(overdueFrom("2024-02-29")).toEqual(new Date("2024-03-01T00:00:00.000Z"));
    expect(overdueFrom("2024-12-31")).toEqual(new Date("2025-01-01T00:00:00.000Z"));
    expect(isPaymentOverdue(invoice, overdueFrom(invoice.payment_due_date))).toBe(true);
    expect(dayOf(new Date("2024-02-16T00:00:00.000Z"))).toBe("2024-02-16");
  });

  it("is never overdue paid, nor before it is finalized", () => {
    const later = new Date("2024-03-01T00:00:00Z");
    expect(isPaymentOverdue({ ...invoice, payment_status: "failed" }, later)).toBe(true);
    expect(isPaymentOverdue({ ...invoice, payment_status: "succeeded" }, later)).toBe(false);
    expect(isPaymentOverdue({ ...invoice, status: "draft" }, later)).toBe(false);
    expect(isPaymentOverdue({ ...invoice, status: "closed" }, later)).toBe(false);
  });
});
