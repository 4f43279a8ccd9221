import { describe, expect, it } from "vitest";
import { nextStep } from "./test-clock";

describe("a test clock's next step", () => {
  const target = new Date("2024-04-01T00:00:00Z");
  it("stops at the earliest work due in any service before the target", () => {
    expect(nextStep(target, [new Date("2024-03-01T00:00:00Z"), null, new Date("2024-02-01T00:00:00Z")])).toEqual(
      new Date("2024-02-01T00:00:00Z"),
    );
  });
  it("goes straight to the target when nothing is due before it", () => {
    expect(nextStep(target, [null, new Date("2024-05-01T00:00:00Z")])).toEqual(target);
  });
});
