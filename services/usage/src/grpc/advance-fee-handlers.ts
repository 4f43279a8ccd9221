import {
  advanceFeeSetToProto,
  usageEventFromProto,
  type AdvanceFeeRpc,
  type CommonMessages,
  type UsageEventData,
} from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { Handlers } from "@billing/grpc";
import { priceAdvanceBatch, type AdvanceDeps } from "../use-cases/advance/price-advance-events";

/** The envelope's events (their properties: the customer's JSON objects, checked here). */
function eventsOf(events: readonly CommonMessages.UsageEvent__Output[]): UsageEventData[] {
  try {
    return events.map(usageEventFromProto);
  } catch {
    throw AppError.badRequest("an event's properties_json must be a JSON object");
  }
}

/** billing.usage.v1.AdvanceFeeService: proto ⇄ use case. */
export function advanceFeeHandlers(deps: AdvanceDeps): Handlers<AdvanceFeeRpc> {
  return {
    PriceAdvanceEvents: async (req) => {
      const [priced] = await priceAdvanceBatch(deps, [
        { organizationId: req.organization_id, envelopeId: req.envelope_id, events: eventsOf(req.events) },
      ]);
      return { fees: advanceFeeSetToProto(priced!.fees) };
    },
    PriceAdvanceBatch: async (req) => {
      const envelopes = req.envelopes.map((e) => ({
        organizationId: e.organization_id,
        envelopeId: e.envelope_id,
        events: eventsOf(e.events),
      }));
      const priced = await priceAdvanceBatch(deps, envelopes);
      return {
        envelopes: envelopes.map((e, i) => ({
          organization_id: e.organizationId,
          envelope_id: e.envelopeId,
          fees: advanceFeeSetToProto(priced[i]!.fees),
        })),
      };
    },
  };
}
