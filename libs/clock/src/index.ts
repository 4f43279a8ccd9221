import { AsyncLocalStorage } from "node:async_hooks";

/** The one source of "now" for every service, so tests and billing runs can be driven to any date. */
export interface Clock {
  now(): Date;
}

/**
 * The frozen time of a sandbox organization's test clock, carried with the work done for it:
 * the gateway sets it per request, gRPC carries it in metadata (`x-frozen-time`), events in their
 * envelope (`frozen_time`), and a clock advance runs each service's due work inside it. Every
 * clock below answers it first, so use cases read "now" the same way for every organization.
 */
const frozen = new AsyncLocalStorage<Date>();

/** Runs `work` (and everything it awaits or starts) at the frozen time `at`. */
export function atFrozenTime<T>(at: Date, work: () => T): T {
  return frozen.run(new Date(at.getTime()), work);
}

/** The frozen time the current work runs at, if it is done for a sandbox organization. */
export function frozenTime(): Date | undefined {
  const at = frozen.getStore();
  return at ? new Date(at.getTime()) : undefined;
}

export const systemClock: Clock = { now: () => frozenTime() ?? new Date() };

/** A clock that only moves when told to (tests); a frozen time in context still wins. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string = new Date()) {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return frozenTime() ?? new Date(this.current);
  }

  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

/** The system clock shifted by a fixed offset (CLOCK_OFFSET_MS), for running a whole platform "in the future". */
export function offsetClock(offsetMs: number): Clock {
  return offsetMs === 0 ? systemClock : { now: () => frozenTime() ?? new Date(Date.now() + offsetMs) };
}
