import { counter } from "@billing/telemetry";

/** The invoicing service's business metrics (served on `/metrics` with the runtime's). */

/** Invoices finalized (numbered, announced), by invoice type; a closed zero-amount invoice does not count. */
export const invoicesFinalized = counter("invoicing_invoices_finalized_total", "Invoices finalized, by invoice type", ["invoice_type"]);
