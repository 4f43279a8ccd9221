import { Rpc, type AppliedCouponRecreditRpc, type WalletRecreditRpc } from "@billing/contracts";
import { isAppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";

/** What a voided invoice gives back to its peers: the catalog's applied coupons and the wallet service's wallets (each idempotent per invoice). */
export interface VoidRecredits {
  /** The credit the invoice took from this applied coupon given back (once; a coupon that is gone gives nothing back). */
  appliedCoupon(organizationId: string, appliedCouponId: string, invoiceId: string): Promise<void>;
  /** The prepaid credits the invoice took from wallets given back (once per wallet transaction). */
  wallets(organizationId: string, invoiceId: string): Promise<void>;
  close(): void;
}

export function grpcVoidRecredits(addresses: { catalog: string; wallet: string }): VoidRecredits {
  const coupons = new RpcClient<AppliedCouponRecreditRpc>(Rpc.appliedCouponRecredits, addresses.catalog, 10_000);
  const wallets = new RpcClient<WalletRecreditRpc>(Rpc.walletRecredits, addresses.wallet, 10_000);
  return {
    async appliedCoupon(organizationId, appliedCouponId, invoiceId) {
      try {
        await coupons.call("RecreditAppliedCoupon", {
          organization_id: organizationId,
          applied_coupon_id: appliedCouponId,
          invoice_id: invoiceId,
        });
      } catch (err) {
        if (isAppError(err) && err.kind === "not_found") return; // the applied coupon is gone
        throw err;
      }
    },
    async wallets(organizationId, invoiceId) {
      await wallets.call("RecreditVoidedInvoice", { organization_id: organizationId, invoice_id: invoiceId });
    },
    close: () => {
      coupons.close();
      wallets.close();
    },
  };
}
