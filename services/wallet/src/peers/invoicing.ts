import { Rpc, type InvoicingRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";

/** What the wallet service asks the invoicing service: a paid top-up's credit invoice. */
export interface Invoicing {
  /** The credit invoice of a purchased transaction (idempotent per transaction); its svc_id. */
  creditInvoice(
    organizationId: string,
    purchase: {
      customer_id: string;
      wallet_transaction_id: string;
      wallet_id: string;
      name: string | null;
      credits: string;
      rate_amount: string;
      amount_cents: number;
      currency: string;
      /** whose sections its invoice shows (absent: the customer's) */
      section_resource?: { skip: boolean; section_ids: string[] };
    },
  ): Promise<string>;
  /** The ongoing usage (cents, taxes included) of the customers of these subscriptions. */
  ongoingUsage(
    organizationId: string,
    of: {
      externalSubscriptionIds?: readonly string[];
      customerIds?: readonly string[];
      onlyCustomerIds?: readonly string[];
    },
  ): Promise<Array<{ customer_id: string; usage_cents: number; currency: string }>>;
}

export function grpcInvoicing(address: string): Invoicing & { close(): void } {
  const client = new RpcClient<InvoicingRpc>(Rpc.invoicing, address, 30_000);
  return {
    async creditInvoice(organizationId, p) {
      const res = await client.call("CreateCreditInvoice", {
        organization_id: organizationId,
        customer_id: p.customer_id,
        wallet_transaction_id: p.wallet_transaction_id,
        wallet_id: p.wallet_id,
        name: p.name ?? undefined,
        credits: p.credits,
        rate_amount: p.rate_amount,
        amount_cents: p.amount_cents,
        currency: p.currency,
        section_resource: p.section_resource,
      });
      if (!res.invoice) throw new Error("invoicing answered without the credit invoice");
      return res.invoice.svc_id;
    },
    async ongoingUsage(organizationId, of) {
      const res = await client.call("OngoingUsage", {
        organization_id: organizationId,
        external_subscription_ids: [...(of.externalSubscriptionIds ?? [])],
        customer_ids: [...(of.customerIds ?? [])],
        only_customer_ids: [...(of.onlyCustomerIds ?? [])],
      });
      return res.customers.map((c) => ({
        customer_id: c.customer_id,
        usage_cents: Number(c.usage_cents),
        currency: c.currency,
      }));
    },
    close: () => client.close(),
  };
}
