import { Router } from "express";
import type { CustomerRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentBillingEntity } from "@billing/views";
import { organizationId } from "../../http/context";
import { codeKey, replySender, rpcOptions } from "../../http/rpc-route";
import { withNullFields } from "../../http/null-fields";
import { parseFields, wrapped } from "../../http/validation";
import { billingEntityUpdateSchema } from "./validators";

/** /api/v1/billing_entities (endpoint 13, its list, and Lago's update). */
export function billingEntitiesRouter(customer: RpcClient<CustomerRpc>): Router {
  const router = Router();
  const send = replySender("billing_entity", presentBillingEntity);
  router.get("/billing_entities", async (req, res) => {
    const reply = await customer.call("ListBillingEntities", { organization_id: organizationId(req) }, rpcOptions(req));
    res.json({ billing_entities: reply.billing_entities.map(presentBillingEntity) });
  });
  router.get("/billing_entities/:code", async (req, res) => {
    send(res, await customer.call("GetBillingEntity", codeKey(req), rpcOptions(req)));
  });
  router.put("/billing_entities/:code", async (req, res) => {
    const { billing_configuration, email_settings, ...fields } = parseFields(
      billingEntityUpdateSchema,
      wrapped(req, "billing_entity"),
    );
    // the entity holds its billing configuration flat, as the API presents it
    const flat = { ...fields, ...(billing_configuration ?? {}) };
    send(
      res,
      await customer.call(
        "UpdateBillingEntity",
        {
          ...codeKey(req),
          billing_entity: {
            ...withNullFields(flat),
            email_settings_set: email_settings !== undefined,
            email_settings: email_settings ?? [],
          },
        },
        rpcOptions(req),
      ),
    );
  });
  return router;
}
