export {
  INVARIANTS,
  isRecent,
  type Breach,
  type BreachRecord,
  type CheckContext,
  type CheckOutcome,
  type FieldValue,
  type Invariant,
  type RecordType,
} from "./breach";
export type * from "./documents";
export {
  reconcile,
  reconcileRecords,
  DEFAULT_GRACE_MS,
  type ReconcileOptions,
  type ReconcileResult,
  type ReconcileScope,
} from "./reconcile";
export { databaseNames, SERVICE_DATABASES, StoredRecords, type ServiceDatabase } from "./read";
export { formatJson, formatText } from "./format";
export { checkWalletLedgers } from "./checks/wallet-ledger";
export { checkInvoiceTotals, invoiceTaxesCents } from "./checks/invoice-totals";
export { checkInvoicePayments } from "./checks/invoice-payments";
export { checkCouponConsumption } from "./checks/coupon-consumption";
export { checkInvoiceNumbering, numberingScopes } from "./checks/invoice-numbering";
export { checkProviderAttempts, dueOf } from "./checks/provider-attempts";
export { checkCreditNoteRefunds, latestSucceeded } from "./checks/credit-note-refunds";
export { checkTopUpSettlement } from "./checks/top-up-settlement";
