import { AppError } from "@billing/errors";
import type { TransactionInput } from "../../domain/wallet-input";
import { transactionsOf } from "../../domain/wallet-transactions";
import type { WalletTransaction } from "../../domain/wallet";
import type { WalletDeps } from "../deps";
import { applyNew } from "./apply-new";
import { resolveSectionChoice } from "../sections";

/**
 * POST /wallet_transactions: unknown wallet (404 wallet_not_found), terminated wallet (422), each
 * field's problem (422; nothing stored); then one transaction per kind of credits sent. Granted
 * and voided credits move the balance before the answer; paid ones are pending until paid.
 */
export async function createWalletTransactions(
  deps: WalletDeps,
  organizationId: string,
  input: TransactionInput,
): Promise<WalletTransaction[]> {
  const wallet = await deps.wallets.find(organizationId, input.wallet_id);
  if (!wallet) throw AppError.notFound("wallet");
  if (wallet.status === "terminated") throw AppError.validation({ wallet: ["wallet_is_terminated"] });
  const sections = await resolveSectionChoice(deps, organizationId, input.invoice_custom_section);
  const { transactions, errors } = transactionsOf(wallet, { ...input, sections }, deps.clock.now());
  if (Object.keys(errors).length) throw AppError.validation(errors);
  return applyNew(deps, wallet, transactions);
}
