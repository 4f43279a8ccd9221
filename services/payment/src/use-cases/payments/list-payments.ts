import type { PageRequest } from "@billing/mongo";
import type { PaymentFilter } from "../../persistence/payment-repository";
import type { PaymentDeps } from "../deps";

export async function listPayments(
  deps: PaymentDeps,
  organizationId: string,
  filter: PaymentFilter,
  page: PageRequest,
) {
  return deps.payments.list(organizationId, filter, page);
}
