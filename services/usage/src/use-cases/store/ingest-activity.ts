/**
 * How busy the ingest path is, and the policy that follows from it: storage waits while ingest
 * requests are in flight or keep arriving (none for `idleMs`), as long as fewer than
 * `yieldBacklog` acknowledged events await storage. Real time (performance.now), not business time.
 */
export class IngestActivity {
  /** ingest requests being answered now */
  inFlight = 0;
  /** when the last ingest request arrived (performance.now) */
  lastRequestAt = -Infinity;

  constructor(private readonly policy: { yieldBacklog: number; idleMs: number }) {}

  /** Storage should hold off, given how many acknowledged events await it. */
  storageShouldYield(awaitingStorage: number): boolean {
    return (
      awaitingStorage < this.policy.yieldBacklog &&
      (this.inFlight > 0 || performance.now() - this.lastRequestAt < this.policy.idleMs)
    );
  }
}
