import type { Logger } from "@billing/logger";
import { driveTestClock } from "../use-cases/test-clocks/drive-test-clock";
import type { CustomerDeps } from "../use-cases/deps";

/** Drives advancing test clocks in the background, one drive per organization at a time. */
export class TestClockDriver {
  private readonly running = new Map<string, Promise<void>>();
  private deps?: CustomerDeps;
  private stopped = false;

  constructor(
    private readonly logger: Logger,
    private readonly retryMs = 1000,
  ) {}

  /** Given once the dependencies exist (they hold this driver). */
  start(deps: CustomerDeps): void {
    this.deps = deps;
  }

  /** Moves the organization's clock to its target unless a drive of it is already under way. */
  drive(organizationId: string): void {
    if (this.stopped || !this.deps || this.running.has(organizationId)) return;
    const deps = this.deps;
    const run = (async () => {
      for (let attempt = 0; !this.stopped; attempt++) {
        try {
          await driveTestClock(deps, organizationId, this.logger);
          return;
        } catch (err) {
          // a peer down or slow: the clock stays advancing at its last completed step; try again
          this.logger.warn({ err, organization_id: organizationId, attempt }, "test clock step failed; retrying");
          await new Promise((r) => setTimeout(r, Math.min(this.retryMs * (attempt + 1), 10_000)));
        }
      }
    })().finally(() => this.running.delete(organizationId));
    this.running.set(organizationId, run);
  }

  /** Resumes the clocks a stop left advancing. */
  async resume(): Promise<void> {
    for (const organization of (await this.deps?.organizations.listAdvancing()) ?? []) this.drive(organization.id);
  }

  /** Waits until no drive is running (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.running.values()]);
  }
}
