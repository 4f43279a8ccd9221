import type { BillingDeps } from "./billing/deps";
import type { CreditNoteDeps } from "./credit-notes/deps";
import type { InvoiceDeps } from "./invoices/deps";
import type { ProgressiveDeps } from "./progressive/deps";

/** How a billing pass runs: subscriptions per usage call, invoices written at once. */
export interface BillingLimits {
  /** subscriptions taken per pass (one ChargeUsage call prices all of them) */
  batch: number;
  /** invoices priced, stored and finalized at once */
  concurrency: number;
}

/**
 * Everything the invoicing service's use cases are given, built once by wiring.ts: the union of
 * each area's deps (invoices/deps.ts, credit-notes/deps.ts, billing/deps.ts, progressive/deps.ts;
 * fees/deps.ts and documents/deps.ts add their own). A use case takes its area's deps, or the
 * part of them it uses (a Pick), never this.
 */
export type InvoicingDeps = InvoiceDeps & CreditNoteDeps & BillingDeps & ProgressiveDeps;
