import type { UsageMessages } from "@billing/contracts";
import { AppError, type ErrorDetails } from "@billing/errors";
import { checkEventInput, type EventInput } from "../domain/event-input";
import type { ValidEvent } from "../domain/event-validation";
import type { EventLine } from "../domain/ingest-message";

/** Proto ⇄ domain for IngestEvents. */

/** IngestEvents' EventInput messages → the events ingestion takes (422 by index when one is not valid). */
export function checkedInputs(inputs: readonly EventInput[]): ValidEvent[] {
  const details: ErrorDetails = {};
  const events: ValidEvent[] = [];
  inputs.forEach((input, i) => {
    const checked = checkEventInput(input);
    if ("errors" in checked) details[i] = checked.errors;
    else events.push(checked.event);
  });
  if (Object.keys(details).length > 0) throw AppError.validation(details);
  return events;
}

/** A stored event → the IngestedEvent message. */
export const ingestedEventMessage = (l: EventLine): UsageMessages.IngestedEvent => ({
  svc_id: l.svcId,
  transaction_id: l.transactionId,
  external_subscription_id: l.externalSubscriptionId,
  code: l.code,
  timestamp: l.timestamp,
  properties_json: l.propertiesJson ?? "{}",
  ...(l.preciseTotalAmountCents !== null ? { precise_total_amount_cents: l.preciseTotalAmountCents } : {}),
  created_at: l.createdAt,
});
