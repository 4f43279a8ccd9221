import { derivedUuid } from "@billing/bus";
import type { DocModel } from "@billing/mongo";
import type { SandboxChargeDoc } from "../persistence/models";
import type { ChargeRequest, ChargeResult, PaymentProvider, RefundRequest, RefundResult } from "./payment-provider";

/**
 * The built-in `sandbox` provider: the whole payment flow without the internet. The outcome
 * follows the customer's `provider_customer_id`, like test card numbers at real providers:
 * FAILS declines, REQUIRES_ACTION asks the customer to confirm (a redirect to our sandbox
 * confirmation endpoint), anything else succeeds. Its charges are kept by idempotency key, as a
 * real provider keeps them: the same key answers the same charge.
 */
/** How long (system time) a REFUND_PENDING card's refund stays pending at the sandbox. */
export const REFUND_SETTLES_AFTER_MS = 500;

export const SANDBOX_CUSTOMERS = {
  FAILS: "4000000000000002",
  REQUIRES_ACTION: "4000002500003155",
  SUCCEEDS: "4242424242424242",
  REFUND_FAILS: "4000000000005126",
  /** its refunds are pending when asked, and succeeded when asked again half a second later or more (as that Stripe test card's settle later) */
  REFUND_PENDING: "4000000000007726",
};

interface ChargeDoc {
  _id: string;
  result: ChargeResult;
}

export function sandboxProvider(charges: DocModel<SandboxChargeDoc>, publicUrl: string): PaymentProvider {
  const store = async (key: string, result: ChargeResult): Promise<ChargeResult> => {
    // the first charge of a key wins (an upsert that never overwrites)
    await charges.updateOne({ _id: key }, { $setOnInsert: { result } }, { upsert: true });
    return (await charges.findById(key).lean<ChargeDoc>())!.result;
  };
  return {
    type: "sandbox",
    async charge(request: ChargeRequest) {
      const id = `sbx_${derivedUuid(`sandbox charge ${request.idempotencyKey}`).replaceAll("-", "")}`;
      const known = await charges.findById(request.idempotencyKey).lean<ChargeDoc>();
      if (known) return known.result;
      const outcome =
        request.providerCustomerId === SANDBOX_CUSTOMERS.FAILS
          ? "failed"
          : request.providerCustomerId === SANDBOX_CUSTOMERS.REQUIRES_ACTION
            ? "processing"
            : "succeeded";
      const result: ChargeResult = {
        providerPaymentId: id,
        status: outcome === "succeeded" ? "succeeded" : outcome === "failed" ? "card_declined" : "requires_action",
        paymentStatus: outcome,
        nextAction:
          outcome === "processing"
            ? {
                type: "redirect_to_url",
                redirect_to_url: {
                  url: `${publicUrl}/api/v1/sandbox/payments/${request.idempotencyKey}/confirm`,
                  return_url: request.returnUrl,
                },
              }
            : {},
      };
      return store(request.idempotencyKey, result);
    },
    // refunds: REFUND_FAILS's charges succeed and their refunds are refused, REFUND_PENDING's are
    // pending when asked and succeeded once REFUND_SETTLES_AFTER_MS have passed (system time; as
    // those test cards at Stripe); any other succeeded charge is refunded. Kept by key like the charges.
    async refund(request: RefundRequest) {
      const key = `refund ${request.idempotencyKey}`;
      const refundId = `sbx_re_${derivedUuid(`sandbox refund ${request.idempotencyKey}`).replaceAll("-", "")}`;
      const known = await charges.findById(key).lean<{ _id: string; result: RefundResult; at?: Date }>();
      if (
        known?.result.refundStatus === "pending" &&
        known.at &&
        Date.now() - known.at.getTime() >= REFUND_SETTLES_AFTER_MS
      ) {
        // asked again after a while: it has settled meanwhile
        const settled: RefundResult = { providerRefundId: refundId, refundStatus: "succeeded", error: null };
        await charges.updateOne({ _id: key, "result.refundStatus": "pending" }, { $set: { result: settled } });
        return (await charges.findById(key).lean<{ _id: string; result: RefundResult }>())!.result;
      }
      if (known) return known.result;
      const card = request.providerCustomerId;
      const result: RefundResult =
        card === SANDBOX_CUSTOMERS.REFUND_FAILS
          ? {
              providerRefundId: null,
              refundStatus: "failed",
              error: { message: "Refund failed to perform", code: "charge_not_refundable" },
            }
          : {
              providerRefundId: refundId,
              refundStatus: card === SANDBOX_CUSTOMERS.REFUND_PENDING ? "pending" : "succeeded",
              error: null,
            };
      await charges.updateOne({ _id: key }, { $setOnInsert: { result, at: new Date() } }, { upsert: true });
      return (await charges.findById(key).lean<{ _id: string; result: RefundResult }>())!.result;
    },
    async confirm(idempotencyKey: string) {
      const doc = await charges.findById(idempotencyKey).lean<ChargeDoc>();
      if (!doc) throw new Error(`sandbox charge ${idempotencyKey} is unknown`);
      if (doc.result.paymentStatus !== "processing") return doc.result;
      const done: ChargeResult = { ...doc.result, status: "succeeded", paymentStatus: "succeeded", nextAction: {} };
      await charges.updateOne(
        { _id: idempotencyKey, "result.paymentStatus": "processing" },
        { $set: { result: done } },
      );
      return (await charges.findById(idempotencyKey).lean<ChargeDoc>())!.result;
    },
  };
}
