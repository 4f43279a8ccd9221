import { AppError } from "@billing/errors";
import {
  OVERPAYMENT_HANDLINGS,
  type OverpaymentHandling,
  type PaymentSettings,
} from "../../persistence/payment-settings";

/** An organization's choice of what is done with overpayments from now on (overpayments recorded before keep their course). */
export async function setOverpaymentHandling(
  deps: { settings: PaymentSettings },
  organizationId: string,
  handling: string,
  now: Date,
): Promise<OverpaymentHandling> {
  if (!organizationId) throw AppError.validation({ organization_id: ["value_is_mandatory"] });
  if (!(OVERPAYMENT_HANDLINGS as readonly string[]).includes(handling))
    throw AppError.validation({ overpayment_handling: ["value_is_invalid"] });
  await deps.settings.setOverpaymentHandling(organizationId, handling as OverpaymentHandling, now);
  return handling as OverpaymentHandling;
}
