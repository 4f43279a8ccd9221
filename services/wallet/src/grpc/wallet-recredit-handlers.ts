import type { WalletRecreditRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { recreditVoidedInvoice } from "../use-cases/transactions/recredit-voided-invoice";
import type { WalletDeps } from "../use-cases/deps";

/** WalletRecreditService: a voided invoice's prepaid credits given back. */
export function walletRecreditHandlers(deps: WalletDeps): Handlers<WalletRecreditRpc> {
  return {
    RecreditVoidedInvoice: async (req) => ({
      recredits: (await recreditVoidedInvoice(deps, req.organization_id, req.invoice_id)).map(({ transaction }) => ({
        wallet_id: transaction.wallet_id, wallet_transaction_id: transaction.id, status: transaction.status,
        amount_cents: transaction.amount_cents, failure: transaction.failure ?? "",
      })),
    }),
  };
}
