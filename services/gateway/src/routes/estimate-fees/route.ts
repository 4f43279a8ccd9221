import { AppError } from "@billing/errors";
import { estimatedFeesBody } from "@billing/views";
import type { UsageClient } from "../../clients";
import { topLevelKey } from "../../http/fields";
import { parseFields, wrappedIn } from "../../http/validation";
import { estimateEventSchema } from "./validators";

/** A JSON body: invalid JSON, or a NUL character (a JSON string can only carry one escaped), is Lago's bare 400. */
function parseJson(body: Buffer): unknown {
  if (body.includes("\\u0000")) throw new AppError("bad_request");
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new AppError("bad_request");
  }
}

/** POST /api/v1/events/estimate_fees: validation and shape only; the usage service prices. */
export async function estimateFees(
  usage: UsageClient,
  organizationId: string,
  body: Buffer,
  requestId: string,
): Promise<string> {
  const input = parseFields(estimateEventSchema, wrappedIn(parseJson(body), "event"), topLevelKey);
  const reply = await usage.call(
    "EstimateFees",
    {
      organization_id: organizationId,
      external_subscription_id: input.external_subscription_id,
      code: input.code,
      properties_json: JSON.stringify(input.properties ?? {}),
    },
    { requestId },
  );
  return estimatedFeesBody(reply.fees);
}
