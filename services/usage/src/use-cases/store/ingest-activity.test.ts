import { describe, expect, it } from "vitest";
import { IngestActivity } from "./ingest-activity";

describe("storage yielding to ingestion", () => {
  const activity = () => new IngestActivity({ yieldBacklog: 1_000, idleMs: 100, maxWaitMs: 1_000 });

  it("yields while requests are in flight, the backlog small and its oldest event young", () => {
    const a = activity();
    a.inFlight = 1;
    expect(a.storageShouldYield(10, 50)).toBe(true);
    expect(a.storageShouldYield(1_000, 50)).toBe(false); // the backlog is full
    a.inFlight = 0;
    a.lastRequestAt = -Infinity;
    expect(a.storageShouldYield(10, 50)).toBe(false); // ingestion paused
  });

  it("stops yielding once an event has awaited storage for maxWaitMs, however steady the traffic", () => {
    const a = activity();
    a.inFlight = 3;
    expect(a.storageShouldYield(10, 999)).toBe(true);
    expect(a.storageShouldYield(10, 1_000)).toBe(false);
  });
});
