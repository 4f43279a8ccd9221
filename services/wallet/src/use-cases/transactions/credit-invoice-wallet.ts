import { derivedUuid } from "@billing/bus";
import { AppError } from "@billing/errors";
import type { Wallet, WalletTransaction } from "../../domain/wallet";
import type { WalletDeps } from "../deps";

/** A credit (top-up) invoice's wallet: the wallet of its purchase transaction. */
export async function creditInvoiceWallet(
  deps: WalletDeps,
  organizationId: string,
  walletTransactionId: string,
): Promise<Wallet> {
  const purchase = await deps.wallets.findTransaction(organizationId, walletTransactionId);
  if (!purchase) throw AppError.notFound("wallet_transaction");
  const wallet = await deps.wallets.find(organizationId, purchase.wallet_id);
  if (!wallet) throw AppError.notFound("wallet");
  return wallet;
}

/**
 * A credit note refunding a credit invoice voids that much of the wallet's credits (Lago's
 * CreditNotes::CreateService#void_prepaid_credit): one outbound `voided` transaction naming the
 * note, its id derived from the note and the wallet, so a retry or a redelivered event stores and
 * applies it once. The ledger fails it when the wallet ended or has less left.
 */
export async function voidCreditNoteCredits(
  deps: WalletDeps,
  organizationId: string,
  request: { wallet_id: string; credit_note_id: string; amount_cents: number },
): Promise<WalletTransaction> {
  if (!request.credit_note_id) throw AppError.validation({ credit_note_id: ["value_is_mandatory"] });
  if (!Number.isSafeInteger(request.amount_cents) || request.amount_cents <= 0)
    throw AppError.validation({ amount_cents: ["value_is_out_of_range"] });
  const id = derivedUuid(`credit note ${request.credit_note_id} voids credits of ${request.wallet_id}`);
  const now = deps.clock.now();
  const { transaction } = await deps.ledger.record(
    organizationId,
    request.wallet_id,
    id,
    (wallet) => ({
      id,
      organization_id: wallet.organization_id,
      wallet_id: wallet.id,
      status: "pending",
      source: "manual",
      transaction_status: "voided",
      transaction_type: "outbound",
      amount_cents: request.amount_cents,
      void_remaining: false,
      invoice_id: null,
      credit_note_id: request.credit_note_id,
      invoice_requires_successful_payment: false,
      name: null,
      metadata: [],
      sequence: null,
      failure: null,
      created_at: now,
      settled_at: null,
      failed_at: null,
    }),
    now,
  );
  return transaction;
}
