import { planView, Rpc, type CatalogMessages, type CatalogRpc, type PlanViewData } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";

/** The catalog's plans, read by code (plan simulations price a customer's past on another plan). */
export interface PlansPeer {
  /** The plan's whole view (charges included), as the catalog's plan events carry it; 404 from the catalog when unknown. */
  planByCode(organizationId: string, code: string): Promise<PlanViewData>;
  close(): void;
}

const parse = (json: string | null | undefined) => (json ? JSON.parse(json) : {}) as Record<string, unknown>;

/** A Plan message → the view (JSON fields parsed; defaults as the events' schema gives them). */
export function planViewOf(p: CatalogMessages.Plan__Output): PlanViewData {
  return planView.parse({
    ...p,
    charges: p.charges.map((c) => ({
      ...c, properties: parse(c.properties_json),
      filters: c.filters.map((f) => ({ invoice_display_name: f.invoice_display_name ?? null, properties: parse(f.properties_json), values: parse(f.values_json) })),
    })),
    fixed_charges: p.fixed_charges.map((f) => ({ ...f, properties: parse(f.properties_json) })),
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
