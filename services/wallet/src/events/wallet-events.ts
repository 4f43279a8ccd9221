import { derivedUuid, Subjects, type Envelope } from "@billing/bus";
import { domainEvent } from "@billing/contracts";
import { centsToCredits } from "@billing/pricing";
import type { Wallet, WalletTransaction } from "../domain/wallet";

const W = Subjects.wallet;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * wallet.created | wallet.updated | wallet.terminated, with the wallet as it is after the change.
 * A creation and a termination happen once: their ids are derived from the wallet, so every
 * replica that builds one publishes the same message (JetStream drops the copies).
 */
export function walletEvent(
  subject:
    typeof W.walletCreated | typeof W.walletUpdated | typeof W.walletTerminated | typeof W.walletDepletedOngoingBalance,
  w: Wallet,
  at: Date,
): Envelope {
  return domainEvent(subject, {
    id: subject === W.walletCreated || subject === W.walletTerminated ? derivedUuid(`${subject}|${w.id}`) : undefined,
    organizationId: w.organization_id,
    occurredAt: at,
    data: {
      wallet: {
        svc_id: w.id,
        svc_customer_id: w.customer_id,
        external_customer_id: w.external_customer_id,
        status: w.status,
        currency: w.currency,
        name: w.name,
        code: w.code,
        priority: w.priority,
        rate_amount: w.rate_amount,
        balance_cents: w.balance_cents,
        credits_balance: centsToCredits(w.balance_cents, w.rate_amount, w.currency),
        consumed_amount_cents: w.consumed_amount_cents,
        ongoing_usage_cents: w.ongoing_usage_cents,
        expiration_at: iso(w.expiration_at),
        terminated_at: iso(w.terminated_at),
        created_at: w.created_at.toISOString(),
        updated_at: w.updated_at.toISOString(),
      },
    },
  });
}

/**
 * wallet_transaction.created | wallet_transaction.updated, with the transaction as it is after the
 * change. A transaction is created once and ends once (settled or failed): ids derived from it and
 * its status make every copy of the same message one message.
 */
export function transactionEvent(
  subject: typeof W.transactionCreated | typeof W.transactionUpdated,
  tx: WalletTransaction,
  at: Date,
): Envelope {
  return domainEvent(subject, {
    id: derivedUuid(`${subject}|${tx.id}|${tx.status}`),
    organizationId: tx.organization_id,
    occurredAt: at,
    data: {
      wallet_transaction: {
        svc_id: tx.id,
        svc_wallet_id: tx.wallet_id,
        svc_invoice_id: tx.invoice_id,
        status: tx.status,
        source: tx.source,
        transaction_status: tx.transaction_status,
        transaction_type: tx.transaction_type,
        amount_cents: tx.amount_cents,
        sequence: tx.sequence,
        failure: tx.failure,
        created_at: tx.created_at.toISOString(),
        settled_at: iso(tx.settled_at),
        failed_at: iso(tx.failed_at),
      },
    },
  });
}
