import { counter } from "@billing/telemetry";

/** The wallet service's business metrics (served on `/metrics` with the runtime's). */

/**
 * Outbound wallet transactions decided by the ledger: `kind` is the transaction status (`invoiced`:
 * credits an invoice took; `voided`), `outcome` settled (the balance went down) or failed.
 */
export const walletDebits = counter("wallet_debits_total", "Wallet debits decided by the ledger, by kind and outcome", [
  "kind",
  "outcome",
]);
