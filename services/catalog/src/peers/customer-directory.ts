import { Rpc, type CustomerMessages, type CustomerRpc } from "@billing/contracts";
import { AppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";

/** What the catalog needs to know of a customer (the customer service owns the rest). */
export interface CustomerRef {
  id: string;
  external_id: string;
  currency: string | null;
  /** The customer's zone, else its billing entity's, else UTC. */
  timezone: string;
}

/** The customer service as the catalog sees it. */
export interface CustomerDirectory {
  /** The live customer with that external id, or null. */
  find(organizationId: string, externalId: string, requestId?: string): Promise<CustomerRef | null>;
  /** Finds the customer, creating it when unknown (Lago does so for subscriptions); sets its currency when it has none. */
  ensure(organizationId: string, externalId: string, currency: string, requestId?: string): Promise<CustomerRef>;
}

const refOf = (c: CustomerMessages.Customer__Output | null): CustomerRef => {
  if (!c) throw new AppError("internal", undefined, undefined, "customer service answered without a customer");
  return {
    id: c.svc_id,
    external_id: c.external_id,
    currency: c.currency ?? null,
    timezone: c.applicable_timezone || "UTC",
  };
};

/** The customer directory over the customer service's gRPC API. */
export function grpcCustomerDirectory(address: string, deadlineMs = 5000): CustomerDirectory & { close(): void } {
  const client = new RpcClient<CustomerRpc>(Rpc.customer, address, deadlineMs);
  const find = async (organizationId: string, externalId: string, requestId?: string) => {
    try {
      const res = await client.call(
        "GetCustomer",
        { organization_id: organizationId, external_id: externalId },
        { requestId },
      );
      return refOf(res.customer);
    } catch (err) {
      if (err instanceof AppError && err.kind === "not_found") return null;
      throw err;
    }
  };
  return {
    find,
    async ensure(organizationId, externalId, currency, requestId) {
      const found = await find(organizationId, externalId, requestId);
      if (found?.currency) return found;
      const res = await client.call(
        "UpsertCustomer",
        { organization_id: organizationId, customer: { external_id: externalId, currency } },
        { requestId },
      );
      return refOf(res.customer);
    },
    close: () => client.close(),
  };
}
