import type { CustomerRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import { deleteCustomer } from "../use-cases/customers/delete-customer";
import { getCustomer } from "../use-cases/customers/get-customer";
import { listCustomers } from "../use-cases/customers/list-customers";
import { upsertCustomer } from "../use-cases/customers/upsert-customer";
import type { CustomerDeps } from "../use-cases/deps";
import { customerMessage, toCustomerPatch } from "./customer-messages";

type CustomerRpcs = Pick<Handlers<CustomerRpc>, "UpsertCustomer" | "GetCustomer" | "ListCustomers" | "DeleteCustomer">;

/** CustomerService's customer RPCs: proto in, use case, proto out. */
export function customerHandlers(deps: CustomerDeps): CustomerRpcs {
  return {
    UpsertCustomer: async (req, ctx) => {
      const input = req.customer;
      const upserted = await upsertCustomer(deps, {
        organizationId: req.organization_id,
        externalId: input?.external_id ?? "",
        patch: input ? toCustomerPatch(input) : {},
        requestId: ctx.requestId,
      });
      return { customer: customerMessage(upserted), created: upserted.created };
    },
    GetCustomer: async (req, ctx) => ({
      customer: customerMessage(await getCustomer(deps, req.organization_id, req.external_id, ctx.requestId)),
    }),
    ListCustomers: async (req, ctx) => {
      const page = pageRequestOf(req);
      const { items, total } = await listCustomers(deps, req.organization_id, page, ctx.requestId);
      return { customers: items.map(customerMessage), meta: pageMeta(total, page) };
    },
    DeleteCustomer: async (req, ctx) => ({
      customer: customerMessage(await deleteCustomer(deps, req.organization_id, req.external_id, ctx.requestId)),
    }),
  };
}
