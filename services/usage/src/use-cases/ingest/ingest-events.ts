import { randomUUID } from "node:crypto";
import type { Clock } from "@billing/clock";
import { AppError, type ErrorDetails } from "@billing/errors";
import type { ValidEvent } from "../../domain/event-validation";
import { encodeRequestLines, eventText } from "../../domain/ingest-message";
import type { CatalogCopies, MetricCopy } from "../../domain/read-copies";
import { realTime } from "../../domain/real-time";
import { eventKey } from "../../domain/usage-event";
import { checkDuplicates, type DuplicateSources } from "./duplicate-check";
import { newTicket } from "./dedup-window";
import type { GroupCommit } from "./group-commit";
import { applyExpression } from "./metric-expressions";

export interface IngestDeps extends DuplicateSources {
  commit: GroupCommit;
  /** Business time: an event's default timestamp and its created_at. */
  clock: Clock;
  copies?: CatalogCopies;
  limits: { maxInFlightEvents: number; maxBacklogEvents: number };
  /** Events accepted and not yet answered, for the in-flight cap (shared by all requests), and when the last request arrived (real time). */
  state: { inFlight: number; lastRequestAt?: number };
}

/** A request's events as stored, in order: their JSON text (EventView, Lago's EventObject). */
export interface IngestedEvents {
  texts: string[];
}

const tooBusy = (what: string) => new AppError("too_many_requests", "too_many_requests", undefined, what);

/** The stored form of each event (expressions evaluated), or the request's validation errors by index. */
function prepare(
  deps: IngestDeps,
  organizationId: string,
  events: readonly ValidEvent[],
  nowMs: number,
): IngestedEvents & { keys: string[] } {
  const createdAt = new Date(nowMs).toISOString();
  const texts: string[] = new Array(events.length);
  const keys: string[] = new Array(events.length);
  let details: ErrorDetails | null = null;
  // the metric of the previous event's code (a request's events mostly share one)
  let code: string | undefined;
  let metric: MetricCopy | null | undefined;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const timestampMs = e.timestamp_ms ?? nowMs;
    if (e.code !== code) ((code = e.code), (metric = deps.copies?.metricByCode(organizationId, code)));
    const computed = applyExpression(metric, { code, timestampMs, properties: e.properties ?? null });
    if (computed && "error" in computed) {
      (details ??= {})[i] = { properties: [computed.error] };
      continue;
    }
    const properties = computed?.properties ?? e.properties;
    texts[i] = eventText({
      svcId: randomUUID(),
      transactionId: e.transaction_id,
      externalSubscriptionId: e.external_subscription_id,
      code: e.code,
      timestamp: timestampMs === nowMs ? createdAt : new Date(timestampMs).toISOString(),
      propertiesJson: properties ? JSON.stringify(properties) : null,
      preciseTotalAmountCents: e.precise_total_amount_cents ?? null,
      createdAt,
    });
    keys[i] = eventKey(organizationId, e.external_subscription_id, e.transaction_id);
  }
  if (details) throw AppError.validation(details);
  return { texts, keys };
}

/**
 * One request's events (validated): expressions evaluated, refused when full (429), refused whole
 * when one is a duplicate (422 by index), else joined to the next group-committed JetStream
 * message; resolves once JetStream acknowledged it (durable).
 */
export async function ingestEvents(
  deps: IngestDeps,
  organizationId: string,
  events: readonly ValidEvent[],
): Promise<IngestedEvents> {
  if (!organizationId) throw AppError.validation({ organization_id: ["value_is_mandatory"] });
  if (events.length === 0) throw AppError.validation({ events: ["value_is_mandatory"] });
  deps.state.lastRequestAt = realTime();
  const { texts, keys } = prepare(deps, organizationId, events, deps.clock.now().getTime());

  if (deps.state.inFlight + events.length > deps.limits.maxInFlightEvents) throw tooBusy("too many events in flight");
  if (deps.window.awaitingStorage > deps.limits.maxBacklogEvents) throw tooBusy("storage is behind");
  deps.state.inFlight += events.length;
  const ticket = newTicket();
  try {
    const duplicates = await checkDuplicates(keys, deps, ticket);
    if (duplicates.length > 0) {
      throw AppError.validation(
        Object.fromEntries(duplicates.map((i) => [String(i), { transaction_id: ["value_already_exist"] }])),
      );
    }
    try {
      await deps.commit.submit(encodeRequestLines(organizationId, texts), texts.length);
    } catch (err) {
      deps.window.release(keys, ticket);
      if (err instanceof RangeError) throw AppError.badRequest(err.message);
      throw new AppError("unavailable", undefined, undefined, "events not acknowledged by the ingest stream");
    }
    deps.window.acknowledge(keys, ticket);
  } finally {
    deps.state.inFlight -= events.length;
  }
  return { texts };
}
