import { AppError } from "@billing/errors";
import type { Payment } from "../../domain/payment";
import type { PaymentDeps } from "../deps";

export async function getPayment(deps: PaymentDeps, organizationId: string, id: string): Promise<Payment> {
  const payment = await deps.payments.find(organizationId, id);
  if (!payment) throw AppError.notFound("payment");
  return payment;
}
