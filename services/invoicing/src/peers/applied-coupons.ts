import { Rpc, type CatalogMessages, type CatalogRpc } from "@billing/contracts";
import { isAppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";
import type { AppliedCouponInput } from "@billing/pricing";
import type { InvoiceCredit } from "../domain/invoice";

/** An active applied coupon as invoicing prices it, with what its credit line shows. */
export interface ActiveCoupon {
  input: AppliedCouponInput;
  code: string;
  name: string;
}

/** The catalog's applied coupons: the customer's active ones, and the credit an invoice takes (idempotent per invoice). */
export interface AppliedCoupons {
  active(organizationId: string, customerId: string): Promise<ActiveCoupon[]>;
  /** Records the credit; null when the catalog refuses it (the coupon is no longer usable). */
  consume(
    organizationId: string,
    invoiceId: string,
    credit: { applied_coupon_id: string; amount_cents: number; currency: string },
  ): Promise<InvoiceCredit | null>;
  close(): void;
}

export function couponInput(c: CatalogMessages.AppliedCoupon__Output): AppliedCouponInput {
  return {
    id: c.svc_id,
    coupon_type: c.coupon_type === "percentage" ? "percentage" : "fixed_amount",
    frequency: (c.frequency || "once") as AppliedCouponInput["frequency"],
    amount_cents: c.amount_cents ?? null,
    amount_cents_remaining: c.amount_cents_remaining ?? null,
    amount_currency: c.amount_currency ?? null,
    percentage_rate: c.percentage_rate ?? null,
    frequency_duration_remaining: c.frequency_duration_remaining ?? null,
    billable_metric_codes: c.billable_metric_codes,
    plan_codes: c.plan_codes,
    created_at: c.created_at || null,
  };
}

export function grpcAppliedCoupons(address: string): AppliedCoupons {
  const client = new RpcClient<CatalogRpc["appliedCoupons"]>(Rpc.catalog.appliedCoupons, address, 5_000);
  return {
    async active(organizationId, customerId) {
      const res = await client.call("ListActiveAppliedCouponsForCustomer", {
        organization_id: organizationId,
        customer_id: customerId,
      });
      return res.applied_coupons.map((c) => ({ input: couponInput(c), code: c.coupon_code, name: c.coupon_name }));
    },
    async consume(organizationId, invoiceId, credit) {
      try {
        const res = await client.call("ConsumeAppliedCoupon", {
          organization_id: organizationId,
          applied_coupon_id: credit.applied_coupon_id,
          invoice_id: invoiceId,
          amount_cents: credit.amount_cents,
          amount_currency: credit.currency,
        });
        const c = res.credit;
        if (!c) return null;
        return {
          id: c.svc_id,
          applied_coupon_id: credit.applied_coupon_id,
          amount_cents: Number(c.amount_cents),
          currency: c.amount_currency || credit.currency,
          item: {
            id: c.item?.svc_item_id ?? credit.applied_coupon_id,
            type: c.item?.type || "coupon",
            code: c.item?.code ?? "",
            name: c.item?.name ?? "",
          },
        };
      } catch (err) {
        // no longer usable (terminated meanwhile, another currency, less left than asked): no credit
        if (isAppError(err) && (err.kind === "failed_precondition" || err.kind === "not_found")) return null;
        throw err;
      }
    },
    close: () => client.close(),
  };
}
