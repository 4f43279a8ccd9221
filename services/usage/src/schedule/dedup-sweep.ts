import type { Clock } from "@billing/clock";
import type { Logger } from "@billing/logger";
import { startPeriodic, type Periodic } from "@billing/runtime";
import type { DedupWindow } from "../use-cases/ingest/dedup-window";
import type { LocalBatches } from "../use-cases/store/local-batches";

/**
 * Every 30 s of real time: forgets duplicate-check keys older than the window (their events are
 * stored, the Bloom filter answers for them) and the kept ingest messages past it. The dedup window
 * runs on the service clock (the time events are acknowledged at); local batches on real time (Date.now,
 * when they were kept), so each side is compared with the time it was stamped with.
 */
export function startDedupSweep(parts: { window: DedupWindow; local: LocalBatches; clock: Clock; windowMs: number; logger: Logger }): Periodic {
  return startPeriodic(
    "dedup sweep",
    async () => {
      parts.window.sweep(parts.clock.now().getTime());
      parts.local.sweep(Date.now() - parts.windowMs);
    },
    { intervalMs: 30_000, logger: parts.logger },
  );
}
