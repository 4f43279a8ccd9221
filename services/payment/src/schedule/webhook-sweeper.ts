import type { Logger } from "@billing/logger";
import { startPeriodic, type Periodic } from "@billing/runtime";
import type { WebhookRepository } from "../persistence/webhook-repository";
import type { WebhookDispatcher } from "./webhook-dispatcher";

/**
 * Renews, on an interval, the leases of deliveries this process holds longer than a lease (a slow
 * endpoint's backlog), and takes the pending deliveries nobody holds: those of a replica that stopped or
 * crashed (their lease has passed) and those that overflowed a busy endpoint's queue, each
 * object's oldest first. System time: delivery bookkeeping is not business time.
 */
export function startWebhookSweeper(
  repository: WebhookRepository,
  dispatcher: WebhookDispatcher,
  options: { intervalMs: number; logger: Logger; batch?: number },
): Periodic {
  const { owner, leaseMs } = dispatcher.settings;
  return startPeriodic(
    "webhook sweep",
    async () => {
      const now = new Date();
      const expiring = dispatcher.expiringLeases(now.getTime() + leaseMs / 2);
      if (expiring.length > 0) {
        const until = new Date(now.getTime() + leaseMs);
        await repository.renewLeases(expiring, owner, until);
        dispatcher.leaseRenewed(expiring, until.getTime());
      }
      const batch = options.batch ?? 500;
      const found = await repository.dueUnleased(now, batch);
      const due = found.filter((d) => !dispatcher.holds(d.id));
      const waiting = new Set<string>();
      let taken = 0;
      for (const d of due) {
        if (dispatcher.room(d.endpoint_id) <= 0) {
          waiting.add(d.endpoint_id);
          continue;
        }
        if (await repository.claim(d.id, owner, now, new Date(now.getTime() + leaseMs))) {
          dispatcher.enqueue([d]);
          taken++;
        }
      }
      if (found.length < batch) dispatcher.caughtUp(waiting);
      return taken > 0;
    },
    { intervalMs: options.intervalMs, logger: options.logger, maxRounds: 20 },
  );
}
