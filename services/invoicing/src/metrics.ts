import { counter } from "@billing/telemetry";

/** The invoicing service's business metrics (served on `/metrics` with the runtime's). */

/** Invoices finalized (numbered, announced), by invoice type; a closed zero-amount invoice does not count. */
export const invoicesFinalized = counter("invoicing_invoices_finalized_total", "Invoices finalized, by invoice type", ["invoice_type"]);

/** Pay-in-advance fees handled from ingested envelopes (a redelivered envelope counts its fees again; the fees are stored once). */
export const advanceFeesCreated = counter("invoicing_advance_fees_total", "Pay-in-advance fees handled from ingested usage envelopes", []);
