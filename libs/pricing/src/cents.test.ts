import { describe, expect, it } from "vitest";
import { centsDue, ongoingBalanceCents, splitPayment, sumCents } from "./cents";

describe("whole cents", () => {
  it("add up exactly, and refuse a total past the safe integers", () => {
    expect(sumCents([600, 1_000, -250])).toBe(1_350);
    expect(sumCents([])).toBe(0);
    expect(() => sumCents([Number.MAX_SAFE_INTEGER, 1], "payment request amount")).toThrow(
      "payment request amount out of range",
    );
  });

  it("leave what is due, never below zero", () => {
    expect(centsDue(1_000, 400)).toBe(600);
    expect(centsDue(1_000, 1_200)).toBe(0);
  });

  it("split a payment into what its invoice takes and what it overpays", () => {
    expect(splitPayment(10_000, 10_000)).toEqual({ applied: 10_000, overpaid: 0 });
    expect(splitPayment(10_000, 6_000)).toEqual({ applied: 6_000, overpaid: 4_000 });
    expect(splitPayment(10_000, 0)).toEqual({ applied: 0, overpaid: 10_000 });
    expect(splitPayment(2_500, 10_000)).toEqual({ applied: 2_500, overpaid: 0 });
  });

  it("give a wallet's ongoing balance, below zero once usage outruns it", () => {
    expect(ongoingBalanceCents(1_000, 250)).toBe(750);
    expect(ongoingBalanceCents(1_000, 1_250)).toBe(-250);
  });
});
