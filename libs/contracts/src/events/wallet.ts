import { z } from "zod";
import { instant, maybe, text } from "./fields";

const cents = z.number().int();

/**
 * A wallet as the wallet service announces it (Lago's wallet.created, wallet.updated and
 * wallet.terminated webhooks act on these fields; the whole object is WalletService's GetWallet).
 */
export const walletView = z.object({
  svc_id: text,
  svc_customer_id: text,
  external_customer_id: text,
  status: z.enum(["active", "terminated"]),
  currency: text,
  name: maybe(text),
  code: maybe(text),
  priority: z.number().int(),
  rate_amount: text,
  balance_cents: cents,
  credits_balance: text,
  consumed_amount_cents: cents,
  /** the ongoing usage it is counted to pay (current-period usage not invoiced yet) */
  ongoing_usage_cents: cents.default(0),
  expiration_at: maybe(instant),
  terminated_at: maybe(instant),
  created_at: instant,
  updated_at: instant,
});
/** billing.wallet.wallet.created|updated|terminated|depleted_ongoing_balance */
export const walletEventData = z.object({ wallet: walletView });
export type WalletViewData = z.output<typeof walletView>;

/** A wallet transaction (Lago's wallet_transaction.created and .updated): a movement, and how it ended. */
export const walletTransactionView = z.object({
  svc_id: text,
  svc_wallet_id: text,
  svc_invoice_id: maybe(text),
  status: z.enum(["pending", "settled", "failed"]),
  source: text,
  transaction_status: z.enum(["purchased", "granted", "voided", "invoiced"]),
  transaction_type: z.enum(["inbound", "outbound"]),
  amount_cents: cents,
  /** its place in the wallet's ledger once applied */
  sequence: maybe(z.number().int()),
  failure: maybe(text),
  created_at: instant,
  settled_at: maybe(instant),
  failed_at: maybe(instant),
});
/** billing.wallet.wallet_transaction.created|updated */
export const walletTransactionEventData = z.object({ wallet_transaction: walletTransactionView });
export type WalletTransactionViewData = z.output<typeof walletTransactionView>;
