import { Rpc, type WalletRecreditRpc } from "@billing/contracts";
import { isAppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";

/** A credit (top-up) invoice's wallet as credit notes see it. */
export interface CreditInvoiceWallet {
  wallet_id: string;
  active: boolean;
  balance_cents: number;
}

/** The wallet service for credit notes on credit invoices: the invoice's wallet, and voiding the credits a note refunds (once per note). */
export interface CreditInvoiceWallets {
  /** The wallet of the invoice's purchase transaction; null when it is gone. */
  of(organizationId: string, walletTransactionId: string): Promise<CreditInvoiceWallet | null>;
  voidCredits(organizationId: string, walletId: string, creditNoteId: string, amountCents: number): Promise<void>;
  close(): void;
}

export function grpcCreditInvoiceWallets(address: string): CreditInvoiceWallets {
  const client = new RpcClient<WalletRecreditRpc>(Rpc.walletRecredits, address, 10_000);
  return {
    async of(organizationId, walletTransactionId) {
      try {
        const w = await client.call("GetCreditInvoiceWallet", {
          organization_id: organizationId,
          wallet_transaction_id: walletTransactionId,
        });
        return { wallet_id: w.wallet_id, active: w.active, balance_cents: Number(w.balance_cents) };
      } catch (err) {
        if (isAppError(err) && err.kind === "not_found") return null;
        throw err;
      }
    },
    async voidCredits(organizationId, walletId, creditNoteId, amountCents) {
      await client.call("VoidCreditNoteCredits", {
        organization_id: organizationId,
        wallet_id: walletId,
        credit_note_id: creditNoteId,
        amount_cents: amountCents,
      });
    },
    close: () => client.close(),
  };
}
