import { counter, histogram } from "@billing/telemetry";

/** The invoicing service's business metrics (served on `/metrics` with the runtime's). */

/** Invoices finalized (numbered, announced), by invoice type; a closed zero-amount invoice does not count. */
export const invoicesFinalized = counter("invoicing_invoices_finalized_total", "Invoices finalized, by invoice type", [
  "invoice_type",
]);

/** Pay-in-advance fees handled from ingested envelopes (a redelivered envelope counts its fees again; the fees are stored once). */
export const advanceFeesCreated = counter(
  "invoicing_advance_fees_total",
  "Pay-in-advance fees handled from ingested usage envelopes",
  [],
);

/** Where a pay-in-advance batch's time goes, by phase (price: the usage service's call; copies; fees: the fee insert; invoices; outbox: the events' insert; publish: after the ack). */
export const advanceFeePhaseSeconds = histogram(
  "invoicing_advance_fee_phase_seconds",
  "Time per pay-in-advance batch phase",
  ["phase"],
);
/** Envelopes per pay-in-advance batch. */
export const advanceFeeBatchEnvelopes = histogram(
  "invoicing_advance_fee_batch_envelopes",
  "Envelopes per pay-in-advance batch",
  [],
  [1, 2, 5, 10, 20, 50, 100, 200],
);
