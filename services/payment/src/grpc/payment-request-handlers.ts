import type { PaymentRequestRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { PaymentRequestDeps } from "../use-cases/deps";
import { createPaymentRequest } from "../use-cases/payment-requests/create-payment-request";
import { getPaymentRequest } from "../use-cases/payment-requests/get-payment-request";
import { listPaymentRequests } from "../use-cases/payment-requests/list-payment-requests";
import { paymentRequestMessage } from "./payment-request-messages";

/** billing.payment.v1.PaymentRequestService: proto in, use case, proto out. */
export function paymentRequestHandlers(deps: PaymentRequestDeps): Handlers<PaymentRequestRpc> {
  return {
    CreatePaymentRequest: async (req) => ({
      payment_request: paymentRequestMessage(
        await createPaymentRequest(deps, req.organization_id, {
          external_customer_id: req.external_customer_id,
          email: req.email,
          invoice_ids: req.invoice_ids,
        }),
      ),
    }),
    GetPaymentRequest: async (req) => ({
      payment_request: paymentRequestMessage(
        await getPaymentRequest(deps, req.organization_id, req.payment_request_id),
      ),
    }),
    ListPaymentRequests: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listPaymentRequests(
        deps,
        req.organization_id,
        {
          externalCustomerId: req.external_customer_id ?? undefined,
          paymentStatus: req.payment_status ?? undefined,
        },
        page,
      );
      return { payment_requests: items.map(paymentRequestMessage), meta: pageMeta(total, page) };
    },
  };
}
