import type { UsageMessages } from "@billing/contracts";
import { presentFee } from "./invoices";
import type { feeEstimateObject, ViewOf } from "./schemas";

/** Lago's FeeObject of an estimated pay-in-advance fee: priced now, never stored (no id, no invoice, no creation time). */
export function presentEstimatedFee(e: UsageMessages.EstimatedFee__Output) {
  if (!e.fee) throw new Error("an estimated fee without its fee");
  const { properties: _properties, ...fee } = presentFee(e.fee);
  return {
    ...fee,
    svc_id: null,
    svc_invoice_id: null,
    created_at: null,
    invoice_display_name: e.invoice_display_name ?? null,
    pricing_unit_details: null,
    applied_taxes: fee.applied_taxes.map((t) => ({ ...t, svc_fee_id: null })),
  } satisfies ViewOf<typeof feeEstimateObject>;
}

/** `{"fees": [Fee]}`: POST /events/estimate_fees's body. */
export function estimatedFeesBody(fees: readonly UsageMessages.EstimatedFee__Output[]): string {
  return JSON.stringify({ fees: fees.map(presentEstimatedFee) });
}
