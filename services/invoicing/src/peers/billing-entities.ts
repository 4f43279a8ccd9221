import { frozenTime } from "@billing/clock";
import { Rpc, type CustomerMessages, type CustomerRpc } from "@billing/contracts";
import { isAppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";
import type { BillingEntityTerms } from "../domain/invoicing-terms";

/**
 * The customer service's billing entities (grace period, numbering, payment terms, default taxes),
 * cached briefly; a sandbox organization's only within one test clock step (its frozen time is in
 * the key), so a change made before the clock moves is seen at the next step.
 */
export interface BillingEntities {
  get(organizationId: string, code: string): Promise<BillingEntityTerms | null>;
  close(): void;
}

export function billingEntityTerms(e: CustomerMessages.BillingEntity__Output): BillingEntityTerms {
  return {
    code: e.code,
    id: e.svc_id,
    name: e.name,
    document_numbering: e.document_numbering,
    document_number_prefix: e.document_number_prefix ?? null,
    finalize_zero_amount_invoice: e.finalize_zero_amount_invoice,
    invoice_grace_period: e.invoice_grace_period,
    net_payment_term: e.net_payment_term,
    subscription_invoice_issuing_date_anchor: e.subscription_invoice_issuing_date_anchor || null,
    subscription_invoice_issuing_date_adjustment: e.subscription_invoice_issuing_date_adjustment || null,
    timezone: e.timezone || null,
    taxes: e.taxes.map((t) => ({
      svc_id: t.svc_id,
      name: t.name,
      code: t.code,
      description: t.description ?? null,
      rate: t.rate,
    })),
  };
}

export function grpcBillingEntities(address: string, ttlMs = 10_000): BillingEntities {
  const client = new RpcClient<CustomerRpc>(Rpc.customer, address, 5_000);
  const cache = new Map<string, { entity: BillingEntityTerms | null; until: number }>();
  return {
    async get(organizationId, code) {
      const key = `${organizationId}|${code}|${frozenTime()?.toISOString() ?? "live"}`;
      const hit = cache.get(key);
      if (hit && hit.until > performance.now()) return hit.entity;
      let entity: BillingEntityTerms | null = null;
      try {
        const res = await client.call("GetBillingEntity", { organization_id: organizationId, code });
        entity = res.billing_entity ? billingEntityTerms(res.billing_entity) : null;
      } catch (err) {
        if (!(isAppError(err) && err.kind === "not_found")) throw err;
      }
      if (cache.size > 10_000) cache.clear();
      cache.set(key, { entity, until: performance.now() + ttlMs });
      return entity;
    },
    close: () => client.close(),
  };
}
