import type { CustomerRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { getBillingEntity } from "../use-cases/billing-entities/get-billing-entity";
import { listBillingEntities } from "../use-cases/billing-entities/list-billing-entities";
import { updateBillingEntity } from "../use-cases/billing-entities/update-billing-entity";
import type { CustomerDeps } from "../use-cases/deps";
import { billingEntityMessage, toBillingEntityPatch } from "./customer-messages";

/** CustomerService's billing-entity RPCs (endpoint 13 and its list). */
export function billingEntityHandlers(
  deps: CustomerDeps,
): Pick<Handlers<CustomerRpc>, "GetBillingEntity" | "ListBillingEntities" | "UpdateBillingEntity"> {
  return {
    GetBillingEntity: async (req) => ({
      billing_entity: billingEntityMessage(await getBillingEntity(deps, req.organization_id, req.code)),
    }),
    UpdateBillingEntity: async (req) => ({
      billing_entity: billingEntityMessage(
        await updateBillingEntity(deps, req.organization_id, req.code, toBillingEntityPatch(req.billing_entity)),
      ),
    }),
    ListBillingEntities: async (req) => ({
      billing_entities: (await listBillingEntities(deps, req.organization_id)).map(billingEntityMessage),
    }),
  };
}
