import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import type { FeePaymentStatus } from "../../domain/advance-fees";
import type { FeeDeps } from "./deps";
import { getFee, type FeeRead } from "./read-fees";

const PAYMENT_STATUSES: readonly string[] = ["pending", "succeeded", "failed", "refunded"];

/**
 * PUT /fees/{svc_id} `payment_status`: a fee not on an invoice only (an invoiced fee follows its
 * invoice: 405 invoiced_fee, as Lago); the timestamp of the new status is set, the others kept.
 */
export async function updateFeePaymentStatus(
  deps: FeeDeps,
  organizationId: string,
  id: string,
  status: string,
): Promise<FeeRead> {
  return retryOnLostRace(`payment status of fee ${id}`, async () => {
    const read = await getFee(deps, organizationId, id);
    if (!read.record || read.record.invoice_id) throw new AppError("not_allowed", "invoiced_fee");
    if (!PAYMENT_STATUSES.includes(status)) throw AppError.validation({ payment_status: ["value_is_invalid"] });
    if (!(await deps.fees.setPaymentStatus(read.record, status as FeePaymentStatus, deps.clock.now())))
      return LOST_RACE;
    return getFee(deps, organizationId, id);
  });
}

/** DELETE /fees/{svc_id}: a pay-in-advance fee waiting for its invoice (Lago: an invoiced fee → 405 invoiced_fee). Answers the fee as it was. */
export async function deleteFee(deps: FeeDeps, organizationId: string, id: string): Promise<FeeRead> {
  return retryOnLostRace(`deletion of fee ${id}`, async () => {
    const read = await getFee(deps, organizationId, id);
    if (!read.record || read.record.invoice_id) throw new AppError("not_allowed", "invoiced_fee");
    if (!(await deps.fees.markDeleted(read.record, deps.clock.now()))) return LOST_RACE;
    return read;
  });
}
