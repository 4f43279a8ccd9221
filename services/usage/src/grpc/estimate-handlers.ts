import type { UsageRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { estimateFees, type EstimateDeps } from "../use-cases/estimate/estimate-fees";
import { estimatedProperties } from "./estimate-messages";

/** EstimateFees: proto ⇄ use case; the fees travel as JSON text (Lago Fee objects). */
export function estimateHandlers(deps: EstimateDeps): Pick<Handlers<UsageRpc>, "EstimateFees"> {
  return {
    EstimateFees: async (request) => {
      const fees = await estimateFees(deps, {
        organizationId: request.organization_id,
        externalSubscriptionId: request.external_subscription_id,
        code: request.code,
        properties: estimatedProperties(request.properties_json),
        timestamp: request.timestamp_ms != null ? new Date(request.timestamp_ms) : undefined,
      });
      return { fees_json: JSON.stringify(fees) };
    },
  };
}
