import type { AdvanceFeeRpc } from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { Handlers } from "@billing/grpc";
import { priceAdvanceEvents, type AdvanceDeps, type IngestedEvent } from "../use-cases/advance/price-advance-events";

function eventsOf(json: string): IngestedEvent[] {
  try {
    const parsed: unknown = JSON.parse(json);
    if (Array.isArray(parsed)) return parsed as IngestedEvent[];
  } catch {
    // answered below
  }
  throw AppError.badRequest("events_json must be a JSON array of events");
}

/** billing.usage.v1.AdvanceFeeService: proto ⇄ use case. */
export function advanceFeeHandlers(deps: AdvanceDeps): Handlers<AdvanceFeeRpc> {
  return {
    PriceAdvanceEvents: async (req) => {
      const fees = await priceAdvanceEvents(deps, { organizationId: req.organization_id, envelopeId: req.envelope_id, events: eventsOf(req.events_json) });
      return { fees_json: JSON.stringify(fees) };
    },
  };
}
