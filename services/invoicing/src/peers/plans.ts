import {
  chargeFilterFromProto,
  chargePropertiesFromProto,
  planView,
  Rpc,
  type CatalogMessages,
  type CatalogRpc,
  type PlanViewData,
} from "@billing/contracts";
import { RpcClient } from "@billing/grpc";

/** The catalog's plans, read by code (plan simulations price a customer's past on another plan). */
export interface PlansPeer {
  /** The plan's whole view (charges included), as the catalog's plan events carry it; 404 from the catalog when unknown. */
  planByCode(organizationId: string, code: string): Promise<PlanViewData>;
  close(): void;
}

/** A Plan message → the view (charge properties and filters in the pricing library's shapes; defaults as the events' schema gives them). */
export function planViewOf(p: CatalogMessages.Plan__Output): PlanViewData {
  return planView.parse({
    ...p,
    charges: p.charges.map((c) => ({
      ...c,
      properties: chargePropertiesFromProto(c.properties),
      filters: c.filters.map(chargeFilterFromProto),
    })),
    fixed_charges: p.fixed_charges.map((f) => ({ ...f, properties: chargePropertiesFromProto(f.properties) })),
  });
}

export function grpcPlans(address: string, deadlineMs = 10_000): PlansPeer {
  const client = new RpcClient<CatalogRpc["plans"]>(Rpc.catalog.plans, address, deadlineMs);
  return {
    async planByCode(organizationId, code) {
      const res = await client.call("GetPlan", { organization_id: organizationId, code });
      return planViewOf(res.plan!);
    },
    close: () => client.close(),
  };
}
