import { describe, expect, it } from "vitest";
import { calendarDate } from "./fields";

describe("calendarDate", () => {
  it("takes a day that exists and refuses the rest with invalid_date (found by the fuzzer: 5038-00-28, 0058-50-02 answered 500)", () => {
    expect(calendarDate.parse("2024-02-29")).toBe("2024-02-29");
    for (const bad of ["5038-00-28", "0058-50-02", "2023-02-29", "2024-13-01", "2024-1-01", "2024-01-01T00:00:00Z"]) {
      const result = calendarDate.safeParse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("invalid_date");
    }
  });
});
