import { Router } from "express";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentMeta } from "../../http/presenting";
import { presentCustomer } from "./presenter";
import { toCustomerInputMessage } from "./to-message";
import { customerErrorKey, customerInputSchema } from "./validators";

type CustomerReply = { customer: Record<string, unknown> };

/** /api/v1/customers: validation and shape only; the customer service decides. */
export function customersRouter(customer: RpcClient): Router {
  const router = Router();
  const opts = (req: Parameters<typeof ctx>[0]) => ({ requestId: ctx(req).requestId });

  router.post("/customers", async (req, res) => {
    const input = parseFields(customerInputSchema, wrapped(req, "customer"), customerErrorKey);
    const reply = await customer.call<CustomerReply>(
      "UpsertCustomer",
      { organization_id: organizationId(req), customer: toCustomerInputMessage(input) },
      opts(req),
    );
    res.json({ customer: presentCustomer(reply.customer) });
  });

  router.get("/customers", async (req, res) => {
    const reply = await customer.call<{ customers: Array<Record<string, unknown>>; meta: Record<string, unknown> }>(
      "ListCustomers",
      { organization_id: organizationId(req), page: pageQuery(req) },
      opts(req),
    );
    res.json({ customers: reply.customers.map(presentCustomer), meta: presentMeta(reply.meta) });
  });

  router.get("/customers/:external_id", async (req, res) => {
    const reply = await customer.call<CustomerReply>(
      "GetCustomer",
      { organization_id: organizationId(req), external_id: req.params.external_id },
      opts(req),
    );
    res.json({ customer: presentCustomer(reply.customer) });
  });

  router.delete("/customers/:external_id", async (req, res) => {
    const reply = await customer.call<CustomerReply>(
      "DeleteCustomer",
      { organization_id: organizationId(req), external_id: req.params.external_id },
      opts(req),
    );
    res.json({ customer: presentCustomer(reply.customer) });
  });

  return router;
}
