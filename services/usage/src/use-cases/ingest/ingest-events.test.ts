import { describe, expect, it } from "vitest";
import { atFrozenTime, ManualClock } from "@billing/clock";
import { AppError } from "@billing/errors";
import { BloomFilter } from "./bloom-filter";
import { DedupWindow } from "./dedup-window";
import { GroupCommit } from "./group-commit";
import { ingestEvents, type IngestDeps } from "./ingest-events";

/** Ingestion in memory: a publisher that acknowledges at once, nothing stored, real time driven by the test. */
function ingestion(windowMs: number) {
  const realTime = { ms: 0 };
  const published: string[] = [];
  const deps: IngestDeps = {
    window: new DedupWindow(windowMs, () => realTime.ms),
    bloom: new BloomFilter(1000, 0.001),
    storedAmong: async () => new Set(),
    commit: new GroupCommit(
      { publish: async (data) => void published.push(Buffer.from(data).toString()) },
      { maxFlushes: 1, maxBytes: 100_000 },
    ),
    clock: new ManualClock("2026-05-10T12:00:00Z"),
    limits: { maxInFlightEvents: 1000, maxBacklogEvents: 1000 },
    state: { inFlight: 0 },
  };
  return { deps, realTime, published };
}

const event = { transaction_id: "tx-1", external_subscription_id: "sub_1", code: "calls" };
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: AppError) => err.details,
  );

describe("ingestEvents", () => {
  it("dates events in business time (a sandbox organization's frozen time) and ages its dedup window in real time", async () => {
    const { deps, realTime, published } = ingestion(60_000);
    const frozen = new Date("2024-01-31T23:00:00Z");
    const { texts } = await atFrozenTime(frozen, () => ingestEvents(deps, "org_sandbox", [event]));
    expect(JSON.parse(texts[0]!)).toMatchObject({ timestamp: frozen.toISOString(), created_at: frozen.toISOString() });
    expect(published).toHaveLength(1);

    // months of business time behind the system clock: the key stays for the window's real time
    realTime.ms += 59_000;
    deps.window.sweep();
    expect(await refusal(ingestEvents(deps, "org_sandbox", [event]))).toEqual({
      "0": { transaction_id: ["value_already_exist"] },
    });
    realTime.ms += 2_000;
    deps.window.sweep();
    expect(await refusal(ingestEvents(deps, "org_sandbox", [event]))).toBeNull();
    expect(published).toHaveLength(2);
  });
});
