import { describe, expect, it } from "vitest";
import { atFrozenTime, frozenTime, ManualClock, offsetClock, systemClock } from "./index";

describe("frozen time in context", () => {
  const at = new Date("2024-01-01T00:00:00Z");

  it("is what every clock answers inside atFrozenTime, across awaits", async () => {
    const manual = new ManualClock("2030-05-05T00:00:00Z");
    await atFrozenTime(at, async () => {
      await new Promise((r) => setTimeout(r, 1));
      expect(systemClock.now()).toEqual(at);
      expect(offsetClock(5000).now()).toEqual(at);
      expect(manual.now()).toEqual(at);
    });
  });

  it("does not leak outside the work it was set for", async () => {
    await atFrozenTime(at, async () => undefined);
    expect(frozenTime()).toBeUndefined();
    expect(Math.abs(systemClock.now().getTime() - Date.now())).toBeLessThan(1000);
  });

  it("hands out copies, so a caller cannot move it", () => {
    atFrozenTime(at, () => {
      frozenTime()!.setTime(0);
      expect(systemClock.now()).toEqual(at);
    });
  });
});
