import { AppError } from "@billing/errors";
import type { PaymentRequestDeps } from "../deps";
import { readPaymentRequestViews, type PaymentRequestView } from "./read-payment-request-views";

/** Lago's GET /payment_requests/{id}, within the organization only (another's is unknown: 404). */
export async function getPaymentRequest(
  deps: PaymentRequestDeps,
  organizationId: string,
  id: string,
): Promise<PaymentRequestView> {
  const request = await deps.paymentRequests.find(organizationId, id);
  if (!request) throw AppError.notFound("payment_request");
  return (await readPaymentRequestViews(deps, organizationId, [request]))[0]!;
}
