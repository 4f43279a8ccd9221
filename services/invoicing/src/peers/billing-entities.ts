import { Rpc, type CustomerMessages, type CustomerRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";

export type BillingEntity = CustomerMessages.BillingEntity__Output;

/** The customer service's billing entities (grace period, numbering, payment term defaults), cached briefly. */
export interface BillingEntities {
  get(organizationId: string, code: string): Promise<BillingEntity | null>;
  close(): void;
}

export function grpcBillingEntities(address: string, ttlMs = 10_000): BillingEntities {
  const client = new RpcClient<CustomerRpc>(Rpc.customer, address, 5_000);
  const cache = new Map<string, { entity: BillingEntity | null; until: number }>();
  return {
    async get(organizationId, code) {
      const key = `${organizationId}|${code}`;
      const hit = cache.get(key);
      if (hit && hit.until > performance.now()) return hit.entity;
      const res = await client.call("GetBillingEntity", { organization_id: organizationId, code });
      if (cache.size > 10_000) cache.clear();
      cache.set(key, { entity: res.billing_entity, until: performance.now() + ttlMs });
      return res.billing_entity;
    },
    close: () => client.close(),
  };
}
