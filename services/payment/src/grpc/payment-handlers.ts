import type { PaymentRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { PaymentDeps } from "../use-cases/deps";
import { confirmSandboxPayment } from "../use-cases/payments/confirm-sandbox-payment";
import { createPayment } from "../use-cases/payments/create-payment";
import { getPayment } from "../use-cases/payments/get-payment";
import { listPayments } from "../use-cases/payments/list-payments";
import { retryInvoicePayment } from "../use-cases/payments/retry-invoice-payment";
import { paymentMessage } from "./payment-messages";

/** billing.payment.v1.PaymentService: proto in, use case, proto out. */
export function paymentHandlers(deps: PaymentDeps): Handlers<PaymentRpc> {
  return {
    CreatePayment: async (req) => ({
      payment: paymentMessage(
        await createPayment(deps, req.organization_id, {
          invoice_id: req.invoice_id,
          amount_cents: Number(req.amount_cents),
          reference: req.reference,
          paid_at: req.paid_at ?? null,
        }),
      ),
    }),
    GetPayment: async (req) => ({
      payment: paymentMessage(await getPayment(deps, req.organization_id, req.payment_id)),
    }),
    ListPayments: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listPayments(
        deps,
        req.organization_id,
        {
          externalCustomerId: req.external_customer_id ?? undefined,
          invoiceId: req.invoice_id ?? undefined,
        },
        page,
      );
      return { payments: items.map(paymentMessage), meta: pageMeta(total, page) };
    },
    RetryInvoicePayment: async (req) => ({
      payment: paymentMessage(await retryInvoicePayment(deps, req.organization_id, req.invoice_id)),
    }),
    ConfirmSandboxPayment: async (req) => ({
      payment: paymentMessage(await confirmSandboxPayment(deps, req.organization_id, req.payment_id)),
    }),
  };
}
