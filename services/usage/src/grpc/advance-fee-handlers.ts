import type { AdvanceFeeRpc } from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { Handlers } from "@billing/grpc";
import { priceAdvanceBatch, type AdvanceDeps, type IngestedEvent } from "../use-cases/advance/price-advance-events";

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
      const [priced] = await priceAdvanceBatch(deps, [{ organizationId: req.organization_id, envelopeId: req.envelope_id, events: eventsOf(req.events_json) }]);
      return { fees_json: priced!.text };
    },
    PriceAdvanceBatch: async (req) => {
      const envelopes = req.envelopes.map((e) => ({ organizationId: e.organization_id, envelopeId: e.envelope_id, events: eventsOf(e.events_json) }));
      const priced = await priceAdvanceBatch(deps, envelopes);
      return {
        envelopes: envelopes.map((e, i) => ({ organization_id: e.organizationId, envelope_id: e.envelopeId, fees_json: priced[i]!.text })),
      };
    },
  };
}
