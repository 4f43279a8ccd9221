import { derivedUuid } from "@billing/bus";
import { AppError } from "@billing/errors";
import type { Wallet, WalletTransaction } from "../../domain/wallet";
import type { WalletDeps } from "../deps";

export interface Recredit {
  /** the outbound transaction the invoice took */
  consumed: WalletTransaction;
  /** what gave it back: settled, or failed (the wallet ended meanwhile: Lago gives nothing back to an inactive wallet) */
  transaction: WalletTransaction;
}

/**
 * A voided invoice gives back the prepaid credits it took (Lago's WalletTransactions::RecreditService,
 * called by its void when no credit note is issued for it): for each settled `invoiced` transaction
 * of the invoice, one inbound `granted` transaction of the same amount, naming the invoice
 * (`voided_invoice_id`), which lowers the wallet's consumed credits as it raises its balance. Its
 * id is derived from the transaction it gives back, so a retry, a redelivered event or a second
 * replica finds it stored and the ledger applies it once. A terminated wallet gets nothing (the
 * ledger fails the transaction).
 */
export async function recreditVoidedInvoice(
  deps: WalletDeps,
  organizationId: string,
  invoiceId: string,
): Promise<Recredit[]> {
  if (!invoiceId) throw AppError.validation({ invoice_id: ["value_is_mandatory"] });
  const taken = (await deps.wallets.transactionsOfInvoice(organizationId, invoiceId))
    .filter((t) => t.transaction_status === "invoiced" && t.transaction_type === "outbound" && t.status === "settled")
    .sort((a, b) => a.id.localeCompare(b.id));
  const out: Recredit[] = [];
  for (const consumed of taken) {
    const id = derivedUuid(`void of invoice ${invoiceId} gives back ${consumed.id}`);
    const now = deps.clock.now();
    const { transaction } = await deps.ledger.record(
      organizationId,
      consumed.wallet_id,
      id,
      (wallet: Wallet) => recreditOf(wallet, id, consumed, now),
      now,
    );
    out.push({ consumed, transaction });
  }
  return out;
}

function recreditOf(wallet: Wallet, id: string, consumed: WalletTransaction, now: Date): WalletTransaction {
  return {
    id,
    organization_id: wallet.organization_id,
    wallet_id: wallet.id,
    status: "pending",
    source: "manual",
    transaction_status: "granted",
    transaction_type: "inbound",
    amount_cents: consumed.amount_cents,
    void_remaining: false,
    invoice_id: null,
    voided_invoice_id: consumed.invoice_id,
    invoice_requires_successful_payment: false,
    name: consumed.name,
    metadata: [],
    sequence: null,
    failure: null,
    created_at: now,
    settled_at: null,
    failed_at: null,
  };
}
