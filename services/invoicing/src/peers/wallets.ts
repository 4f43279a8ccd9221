import { Rpc, type WalletRpc } from "@billing/contracts";
import { isAppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";
import type { WalletInput } from "@billing/pricing";

/** The wallet service as invoicing sees it: a customer's wallets to allocate prepaid credits over, and taking them. */
export interface Wallets {
  /** The customer's active wallets with a balance, as the pricing library allocates over them. */
  active(organizationId: string, customerId: string): Promise<Array<WalletInput & { currency: string }>>;
  /** Takes credits for an invoice (once per invoice and wallet, whatever the retries); what the wallet gave: the amount, or 0 when it no longer could. */
  consume(organizationId: string, invoiceId: string, walletId: string, amountCents: number): Promise<number>;
  close(): void;
}

export function grpcWallets(address: string): Wallets {
  const client = new RpcClient<WalletRpc>(Rpc.wallet, address, 10_000);
  return {
    async active(organizationId, customerId) {
      const res = await client.call("ListActiveWalletsForCustomer", {
        organization_id: organizationId,
        customer_id: customerId,
      });
      return res.wallets.map((w) => ({
        id: w.svc_id,
        currency: w.currency,
        balance_cents: Number(w.balance_cents),
        priority: w.priority,
        created_at: w.created_at,
        applies_to: {
          fee_types: w.applies_to?.fee_types ?? [],
          billable_metric_codes: w.applies_to?.billable_metric_codes ?? [],
        },
      }));
    },
    async consume(organizationId, invoiceId, walletId, amountCents) {
      try {
        const res = await client.call("ConsumeCredits", {
          organization_id: organizationId,
          invoice_id: invoiceId,
          wallet_id: walletId,
          amount_cents: amountCents,
        });
        const tx = res.wallet_transaction;
        return tx?.status === "settled" ? Number(tx.amount_cents) : 0;
      } catch (err) {
        if (isAppError(err) && err.kind === "not_found") return 0; // the wallet is gone
        throw err;
      }
    },
    close: () => client.close(),
  };
}
