import type { Logger } from "@billing/logger";
import { startPeriodic, type Periodic } from "@billing/runtime";
import { ANSWER_KEEP_MS, type AdvanceStore } from "../persistence/advance-store";

/** How often the sweep runs (real time). */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Every hour: deletes the pay-in-advance answers stored more than ANSWER_KEEP_MS ago (longer than
 * the usage stream keeps the envelopes they answer, so none can be asked for again). Real time
 * only: a sandbox organization's frozen business time must not keep them, nor age them. Every
 * replica may run it; a second delete of the same answers deletes nothing.
 */
export function sweepAdvanceAnswers(store: AdvanceStore, now: Date): Promise<number> {
  return store.deleteAnswersStoredBefore(new Date(now.getTime() - ANSWER_KEEP_MS));
}

export function startAdvanceAnswersSweep(parts: { store: AdvanceStore; logger: Logger }): Periodic {
  return startPeriodic(
    "pay-in-advance answers sweep",
    async () => {
      const deleted = await sweepAdvanceAnswers(parts.store, new Date());
      if (deleted > 0) parts.logger.info({ deleted }, "expired pay-in-advance answers deleted");
    },
    { intervalMs: SWEEP_EVERY_MS, logger: parts.logger },
  );
}
