import { AppError } from "@billing/errors";
import type { PageRequest } from "@billing/mongo";
import { PAYMENT_REQUEST_STATUSES, type PaymentRequestStatus } from "../../domain/payment-request";
import type { PaymentRequestFilter } from "../../persistence/payment-request-repository";
import type { PaymentRequestDeps } from "../deps";
import { readPaymentRequestViews, type PaymentRequestView } from "./read-payment-request-views";

/** Lago's GET /payment_requests: newest first, by external customer id and payment status when given. */
export async function listPaymentRequests(
  deps: PaymentRequestDeps,
  organizationId: string,
  filter: PaymentRequestFilter,
  page: PageRequest,
): Promise<{ items: PaymentRequestView[]; total: number }> {
  if (
    filter.paymentStatus !== undefined &&
    !PAYMENT_REQUEST_STATUSES.includes(filter.paymentStatus as PaymentRequestStatus)
  ) {
    throw AppError.validation({ payment_status: ["value_is_invalid"] });
  }
  const { items, total } = await deps.paymentRequests.list(organizationId, filter, page);
  return { items: await readPaymentRequestViews(deps, organizationId, items), total };
}
