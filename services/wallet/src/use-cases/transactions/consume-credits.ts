import { derivedUuid } from "@billing/bus";
import { AppError } from "@billing/errors";
import { consumptionOf } from "../../domain/wallet-transactions";
import type { Wallet, WalletTransaction } from "../../domain/wallet";
import type { WalletDeps } from "../deps";

/**
 * Credits an invoice takes from a wallet (invoicing's finalization): one outbound `invoiced`
 * transaction per (invoice, wallet), its id derived from both, so a retry, a crash or a second
 * invoicing replica finds the same transaction and the ledger applies it once. It settles, or
 * fails when the wallet no longer has that much (or ended) and takes nothing.
 */
export async function consumeCredits(
  deps: WalletDeps,
  organizationId: string,
  request: { wallet_id: string; invoice_id: string; amount_cents: number },
): Promise<{ transaction: WalletTransaction; wallet: Wallet }> {
  if (!Number.isSafeInteger(request.amount_cents) || request.amount_cents <= 0)
    throw AppError.validation({ amount_cents: ["value_is_out_of_range"] });
  const id = derivedUuid(`invoice ${request.invoice_id} takes from wallet ${request.wallet_id}`);
  // a retry's transaction is already stored: the ledger answers how it was decided
  return deps.ledger.record(
    organizationId,
    request.wallet_id,
    id,
    (wallet) => consumptionOf(wallet, id, request.invoice_id, request.amount_cents, deps.clock.now()),
    deps.clock.now(),
  );
}
