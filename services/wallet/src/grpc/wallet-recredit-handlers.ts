import type { WalletRecreditRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { recreditVoidedInvoice } from "../use-cases/transactions/recredit-voided-invoice";
import { creditInvoiceWallet, voidCreditNoteCredits } from "../use-cases/transactions/credit-invoice-wallet";
import type { WalletDeps } from "../use-cases/deps";

/** WalletRecreditService: a voided invoice's prepaid credits given back; a credit invoice's wallet and the credits its credit notes void. */
export function walletRecreditHandlers(deps: WalletDeps): Handlers<WalletRecreditRpc> {
  return {
    RecreditVoidedInvoice: async (req) => ({
      recredits: (await recreditVoidedInvoice(deps, req.organization_id, req.invoice_id)).map(({ transaction }) => ({
        wallet_id: transaction.wallet_id,
        wallet_transaction_id: transaction.id,
        status: transaction.status,
        amount_cents: transaction.amount_cents,
        failure: transaction.failure ?? "",
      })),
    }),
    GetCreditInvoiceWallet: async (req) => {
      const wallet = await creditInvoiceWallet(deps, req.organization_id, req.wallet_transaction_id);
      return { wallet_id: wallet.id, active: wallet.status === "active", balance_cents: wallet.balance_cents };
    },
    VoidCreditNoteCredits: async (req) => {
      const tx = await voidCreditNoteCredits(deps, req.organization_id, {
        wallet_id: req.wallet_id,
        credit_note_id: req.credit_note_id,
        amount_cents: Number(req.amount_cents),
      });
      return {
        wallet_id: tx.wallet_id,
        wallet_transaction_id: tx.id,
        status: tx.status,
        amount_cents: tx.amount_cents,
        failure: tx.failure ?? "",
      };
    },
  };
}
