import { counter, histogram } from "@billing/telemetry";

/** The usage service's business metrics (served on `/metrics` with the runtime's). */

/** Events stored by POST /events and /events/batch (acknowledged by the ingest stream). */
export const eventsIngested = counter(
  "usage_events_ingested_total",
  "Usage events ingested (acknowledged by the ingest stream)",
);

/**
 * Events refused, by the HTTP status answered (400 unreadable, 422 invalid or duplicate, 429 too
 * busy, 503 not acknowledged): a request is refused whole, so each counts its events (1 when its
 * body could not be read as events).
 */
export const eventsRefused = counter("usage_events_refused_total", "Usage events refused, by HTTP status answered", [
  "status",
]);

/** Where a pay-in-advance batch's pricing time goes, by phase (answers: the answers' read; buckets: the states' read; price; store: the answers' insert; move: the buckets' bulk write). */
export const advancePricingPhaseSeconds = histogram(
  "usage_advance_pricing_phase_seconds",
  "Time per pay-in-advance pricing phase",
  ["phase"],
);
