import type { Logger } from "@billing/logger";
import { startPeriodic, type Periodic } from "@billing/runtime";
import type { DedupWindow } from "../use-cases/ingest/dedup-window";
import type { LocalBatches } from "../use-cases/store/local-batches";

/** How often the sweep runs (real time). */
const SWEEP_EVERY_MS = 30_000;

/**
 * Every 30 s: forgets the duplicate-check keys acknowledged longer than the window ago (storage is
 * that far behind; the unique `_id` still stores a late duplicate once) and the published messages
 * kept that long for storage (a failed publish, a message stored by another replica). Real time
 * only (domain/real-time.ts): both bound memory, and a sandbox organization's frozen business time
 * must not age them.
 */
export function startDedupSweep(parts: {
  window: DedupWindow;
  local: LocalBatches;
  windowMs: number;
  logger: Logger;
}): Periodic {
  return startPeriodic(
    "dedup sweep",
    async () => {
      parts.window.sweep();
      parts.local.sweep(parts.windowMs);
    },
    { intervalMs: SWEEP_EVERY_MS, logger: parts.logger },
  );
}
