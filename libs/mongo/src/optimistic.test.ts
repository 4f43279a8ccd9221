import { describe, expect, it } from "vitest";
import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "./optimistic";

describe("retryOnLostRace", () => {
  it("runs the attempt again after each lost race and returns the first outcome", async () => {
    const seen: number[] = [];
    const result = await retryOnLostRace("thing", async (n) => {
      seen.push(n);
      return n < 2 ? LOST_RACE : "stored";
    });
    expect(result).toBe("stored");
    expect(seen).toEqual([0, 1, 2]);
  });

  it("gives up with 503 unavailable after the last attempt", async () => {
    const err = await retryOnLostRace("customer", async () => LOST_RACE, 3).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).kind).toBe("unavailable");
  });

  it("stops at once when an attempt throws", async () => {
    let calls = 0;
    await expect(
      retryOnLostRace("x", async () => {
        calls++;
        throw AppError.validation({ code: ["value_already_exist"] });
      }),
    ).rejects.toBeInstanceOf(AppError);
    expect(calls).toBe(1);
  });
});
