import type { Envelope } from "@billing/bus";
import type { Clock } from "@billing/clock";
import { AppError, type ErrorDetails } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import type { CatalogRecord } from "../domain/types";
import type { CatalogRepository } from "../persistence/catalog-repository";

export const duplicateCode = () => AppError.validation({ code: ["value_already_exist"] });

export function refuseIfInvalid(violations: ErrorDetails | null): void {
  if (violations) throw AppError.validation(violations);
}

/** Stores a new record (with its event); a live record of the same code → 422 value_already_exist. */
export async function insertRecord<T extends CatalogRecord>(
  repo: CatalogRepository<T>,
  record: T,
  event?: Envelope,
): Promise<void> {
  if ((await repo.insert(record, event)) === "duplicate_code") throw duplicateCode();
}

/**
 * Reads the live record of `code`, computes its next state and writes it if nobody changed it
 * meanwhile (reading again after a lost race). `change` validates and may throw; nothing is
 * stored then. updated_at always moves forward.
 */
export async function changeRecord<T extends CatalogRecord>(
  repo: CatalogRepository<T>,
  clock: Clock,
  key: { organizationId: string; code: string; resource: string },
  change: (current: T, now: Date) => Promise<T> | T,
  eventOf?: (next: T, now: Date) => Envelope,
): Promise<{ next: T; event?: Envelope }> {
  return retryOnLostRace(
    key.resource,
    async () => {
      const current = await repo.findLive(key.organizationId, key.code);
      if (!current) throw AppError.notFound(key.resource);
      const now = clock.now();
      const next = await change(current, now);
      next.updated_at = new Date(Math.max(now.getTime(), current.updated_at.getTime() + 1));
      const event = eventOf?.(next, now);
      const outcome = await repo.replace(next, current.updated_at, event);
      if (outcome === "ok") return { next, event };
      if (outcome === "duplicate_code") throw duplicateCode();
      return LOST_RACE;
    },
    10,
  );
}

/** A soft delete: the record disappears from reads and its code becomes free. */
export function deleteRecord<T extends CatalogRecord>(
  repo: CatalogRepository<T>,
  clock: Clock,
  key: { organizationId: string; code: string; resource: string },
  finish: (current: T, now: Date) => T = (current) => current,
  eventOf?: (next: T, now: Date) => Envelope,
) {
  return changeRecord(repo, clock, key, (current, now) => ({ ...finish(current, now), deleted_at: now }), eventOf);
}
