import { Router } from "express";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { topLevelKey } from "../../http/fields";
import { parseFields, wrapped } from "../../http/validation";
import { estimatedFeesBody } from "./estimate-presenter";
import { estimateEventSchema } from "./estimate-validators";

/** POST /api/v1/events/estimate_fees: validation and shape only; the usage service prices. */
export function estimateFeesRouter(usage: RpcClient): Router {
  const router = Router();
  router.post("/events/estimate_fees", async (req, res) => {
    const input = parseFields(estimateEventSchema, wrapped(req, "event"), topLevelKey);
    const reply = await usage.call<{ fees_json: string }>(
      "EstimateFees",
      {
        organization_id: organizationId(req),
        external_subscription_id: input.external_subscription_id,
        code: input.code,
        properties_json: JSON.stringify(input.properties ?? {}),
      },
      { requestId: ctx(req).requestId },
    );
    res.type("json").send(estimatedFeesBody(reply.fees_json));
  });
  return router;
}
