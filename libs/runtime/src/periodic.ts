import type { Logger } from "@billing/logger";

export interface Periodic {
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs`, never two at once; a pass that reports work done (`true`) is
 * followed at once by another, `maxRounds` in a row at most. A failing pass is logged and the
 * timer goes on. The interval is real time; what is due is decided by the pass on the injected clock.
 */
export function startPeriodic(
  name: string,
  pass: () => Promise<boolean | void>,
  options: { intervalMs: number; logger: Logger; maxRounds?: number },
): Periodic {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = async () => {
    try {
      for (let round = 0; round < (options.maxRounds ?? 1) && !stopped && (await pass()) === true; round++);
    } catch (err) {
      options.logger.error({ err, task: name }, `${name} failed; will run again`);
    }
    if (!stopped) schedule();
  };
  const schedule = () => {
    timer = setTimeout(() => {
      running = run(); // never rejects: a failed pass is logged and the next one scheduled
    }, options.intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
