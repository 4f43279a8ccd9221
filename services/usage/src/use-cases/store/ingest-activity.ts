import { realTime } from "../../domain/real-time";

/**
 * How busy the ingest path is, and the policy that follows from it: storage waits while ingest
 * requests are in flight or keep arriving (none for `idleMs`), as long as fewer than
 * `yieldBacklog` acknowledged events await storage and none has awaited it for `maxWaitMs`.
 * The bound on the wait matters under steady traffic: requests then never pause, and without it
 * storage (and everything reading stored usage: pay-in-advance fees, progressive billing, billing
 * runs, estimates) would wait for the backlog to fill. Real time (domain/real-time.ts), not business time.
 */
export class IngestActivity {
  /** events of the ingest requests being answered now (also the in-flight cap's count) */
  inFlight = 0;
  /** when the last ingest request arrived (real time) */
  lastRequestAt = -Infinity;

  constructor(private readonly policy: { yieldBacklog: number; idleMs: number; maxWaitMs: number }) {}

  /** Storage should hold off, given how many acknowledged events await it, and since when the oldest does (ms). */
  storageShouldYield(awaitingStorage: number, oldestWaitMs: number): boolean {
    return (
      awaitingStorage < this.policy.yieldBacklog &&
      oldestWaitMs < this.policy.maxWaitMs &&
      (this.inFlight > 0 || realTime() - this.lastRequestAt < this.policy.idleMs)
    );
  }
}
