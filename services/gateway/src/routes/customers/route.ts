import { Router } from "express";
import type { CustomerRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentCustomer, presentMeta } from "@billing/views";
import { organizationId } from "../../http/context";
import { externalIdKey, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { toCustomerInputMessage } from "./to-message";
import { customerErrorKey, customerInputSchema } from "./validators";

/** /api/v1/customers: validation and shape only; the customer service decides. */
export function customersRouter(customer: RpcClient<CustomerRpc>): Router {
  const router = Router();
  const send = replySender("customer", presentCustomer);

  router.post("/customers", async (req, res) => {
    const input = parseFields(customerInputSchema, wrapped(req, "customer"), customerErrorKey);
    const message = { organization_id: organizationId(req), customer: toCustomerInputMessage(input) };
    send(res, await customer.call("UpsertCustomer", message, rpcOptions(req)));
  });

  router.get("/customers", async (req, res) => {
    const reply = await customer.call(
      "ListCustomers",
      { organization_id: organizationId(req), page: pageQuery(req) },
      rpcOptions(req),
    );
    res.json({ customers: reply.customers.map(presentCustomer), meta: presentMeta(reply.meta) });
  });

  router.get("/customers/:external_id", async (req, res) => {
    send(res, await customer.call("GetCustomer", externalIdKey(req), rpcOptions(req)));
  });

  router.delete("/customers/:external_id", async (req, res) => {
    send(res, await customer.call("DeleteCustomer", externalIdKey(req), rpcOptions(req)));
  });

  return router;
}
