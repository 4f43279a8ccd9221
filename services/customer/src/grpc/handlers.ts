import type { RpcHandler } from "@billing/grpc";
import { pageMeta } from "@billing/mongo";
import { billingEntityView, customerView } from "../domain/views";
import type { CustomerWithRefs } from "../use-cases/customer-refs";
import type { CustomerDeps } from "../use-cases/deps";
import { deleteCustomer } from "../use-cases/delete-customer";
import { getBillingEntity, listBillingEntities } from "../use-cases/billing-entities";
import { authenticateApiKey } from "../use-cases/organizations";
import { getCustomer, listCustomers } from "../use-cases/read-customers";
import { upsertCustomer } from "../use-cases/upsert-customer";
import { toCustomerPatch, type CustomerInputMessage } from "./customer-input";

type PageMessage = { page: { page: number; per_page: number } | null };

function pageOf(request: PageMessage) {
  return { page: Math.max(1, request.page?.page || 1), perPage: Math.min(1000, Math.max(1, request.page?.per_page || 100)) };
}

const view = ({ customer, refs }: CustomerWithRefs) => customerView(customer, refs);

/** billing.customer.v1.CustomerService: proto in, use case, proto out. Nothing else. */
export function customerHandlers(deps: CustomerDeps): Record<string, RpcHandler> {
  return {
    AuthenticateApiKey: async (req: { api_key: string }) => {
      const org = await authenticateApiKey(deps, req.api_key);
      return { organization_id: org.id, organization_name: org.name };
    },
    UpsertCustomer: async (req: { organization_id: string; customer: CustomerInputMessage }, ctx) => {
      const upserted = await upsertCustomer(deps, {
        organizationId: req.organization_id,
        externalId: req.customer.external_id,
        patch: toCustomerPatch(req.customer),
        requestId: ctx.requestId,
      });
      return { customer: view(upserted), created: upserted.created };
    },
    GetCustomer: async (req: { organization_id: string; external_id: string }, ctx) => ({
      customer: view(await getCustomer(deps, req.organization_id, req.external_id, ctx.requestId)),
    }),
    ListCustomers: async (req: { organization_id: string } & PageMessage, ctx) => {
      const page = pageOf(req);
      const { items, total } = await listCustomers(deps, req.organization_id, page, ctx.requestId);
      return { customers: items.map(view), meta: pageMeta(total, page) };
    },
    DeleteCustomer: async (req: { organization_id: string; external_id: string }, ctx) => ({
      customer: view(await deleteCustomer(deps, req.organization_id, req.external_id, ctx.requestId)),
    }),
    GetBillingEntity: async (req: { organization_id: string; code: string }) => ({
      billing_entity: billingEntityView(await getBillingEntity(deps, req.organization_id, req.code)),
    }),
    ListBillingEntities: async (req: { organization_id: string }) => ({
      billing_entities: (await listBillingEntities(deps, req.organization_id)).map(billingEntityView),
    }),
  };
}
