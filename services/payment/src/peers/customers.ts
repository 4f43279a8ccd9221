import { Rpc, type CustomerMessages, type CustomerRpc } from "@billing/contracts";
import { AppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";

/** A customer's payment provider settings (Lago's billing_configuration). */
export interface CustomerBilling {
  payment_provider: string | null;
  payment_provider_code: string | null;
  provider_customer_id: string | null;
}

/** The customer service as the payment service sees it. */
export interface Customers {
  /** The live customer's payment settings, or null when there is no such customer. */
  billing(organizationId: string, externalId: string): Promise<CustomerBilling | null>;
  /** The live customer as GET /customers/{external_id} answers it, or null when there is no such customer. */
  find(organizationId: string, externalId: string): Promise<CustomerMessages.Customer__Output | null>;
}

export function grpcCustomers(address: string, deadlineMs = 5000): Customers & { close(): void } {
  const client = new RpcClient<CustomerRpc>(Rpc.customer, address, deadlineMs);
  return {
    async billing(organizationId, externalId) {
      try {
        const c = (await client.call("GetCustomer", { organization_id: organizationId, external_id: externalId }))
          .customer;
        const b = c?.billing_configuration;
        return {
          payment_provider: b?.payment_provider ?? null,
          payment_provider_code: b?.payment_provider_code ?? null,
          provider_customer_id: b?.provider_customer_id ?? null,
        };
      } catch (err) {
        if (err instanceof AppError && err.kind === "not_found") return null;
        throw err;
      }
    },
    async find(organizationId, externalId) {
      try {
        return (await client.call("GetCustomer", { organization_id: organizationId, external_id: externalId }))
          .customer;
      } catch (err) {
        if (err instanceof AppError && err.kind === "not_found") return null;
        throw err;
      }
    },
    close: () => client.close(),
  };
}
