import { AppError } from "@billing/errors";
import type { RpcHandler } from "@billing/grpc";
import { estimateFees, type EstimateDeps } from "./estimate-fees";

interface EstimateFeesRequest {
  organization_id: string;
  external_subscription_id: string;
  code: string;
  properties_json?: string;
  timestamp_ms?: number;
}

const invalidProperties = () => AppError.validation({ properties: ["value_is_invalid"] });

function properties(json: string | undefined): Record<string, unknown> {
  if (!json) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw invalidProperties();
  }
  if (value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalidProperties();
  return value as Record<string, unknown>;
}

/** EstimateFees: proto ⇄ use case; the fees travel as JSON text (Lago Fee objects). */
export function estimateHandlers(deps: EstimateDeps): Record<string, RpcHandler> {
  return {
    EstimateFees: async (request: EstimateFeesRequest) => {
      const fees = await estimateFees(deps, {
        organizationId: request.organization_id,
        externalSubscriptionId: request.external_subscription_id,
        code: request.code,
        properties: properties(request.properties_json),
        timestamp: request.timestamp_ms != null ? new Date(request.timestamp_ms) : undefined,
      });
      return { fees_json: JSON.stringify(fees) };
    },
  };
}
