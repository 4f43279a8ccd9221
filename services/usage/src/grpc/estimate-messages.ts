import type { UsageMessages } from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { EstimateRequest } from "../use-cases/estimate/estimate-fees";
import type { FeeView } from "../use-cases/estimate/fee-view";

/** Proto ⇄ domain for EstimateFees. */

const invalidProperties = () => AppError.validation({ properties: ["value_is_invalid"] });

/** properties_json → the estimated event's properties (absent or null: none; not an object: 422). */
function estimatedProperties(json: string | null | undefined): Record<string, unknown> {
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

/** An EstimateFeesRequest → the estimate asked for (no timestamp: now). */
export const estimateRequest = (r: UsageMessages.EstimateFeesRequest__Output): EstimateRequest => ({
  organizationId: r.organization_id,
  externalSubscriptionId: r.external_subscription_id,
  code: r.code,
  properties: estimatedProperties(r.properties_json),
  timestamp: r.timestamp_ms != null ? new Date(r.timestamp_ms) : undefined,
});

/** The fees → the EstimateFeesResponse: Lago Fee objects as JSON text. */
export const estimateReply = (fees: FeeView[]): UsageMessages.EstimateFeesResponse => ({ fees_json: JSON.stringify(fees) });
