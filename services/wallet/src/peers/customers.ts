import { Rpc, type CustomerMessages, type CustomerRpc } from "@billing/contracts";
import { AppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";

/** What the wallet service needs to know of a customer (the customer service owns the rest). */
export interface CustomerRef {
  id: string;
  external_id: string;
  currency: string | null;
  billing_entity_code: string;
}

/** The customer service as the wallet service sees it. */
export interface Customers {
  /** The live customer with that external id, or null. */
  find(organizationId: string, externalId: string, requestId?: string): Promise<CustomerRef | null>;
  /** Gives a customer without a currency this one (a wallet's currency becomes its customer's, as in Lago). */
  setCurrency(organizationId: string, externalId: string, currency: string, requestId?: string): Promise<CustomerRef>;
  /** A sandbox organization's frozen time; null for an ordinary organization (the system clock). */
  frozenTime(organizationId: string): Promise<Date | null>;
}

const refOf = (c: CustomerMessages.Customer__Output | null): CustomerRef => {
  if (!c) throw AppError.internal("customer service answered without a customer");
  return {
    id: c.svc_id,
    external_id: c.external_id,
    currency: c.currency ?? null,
    billing_entity_code: c.billing_entity_code || "default",
  };
};

/** The customer service over gRPC. */
export function grpcCustomers(address: string, deadlineMs = 5000): Customers & { close(): void } {
  const client = new RpcClient<CustomerRpc>(Rpc.customer, address, deadlineMs);
  return {
    async find(organizationId, externalId, requestId) {
      try {
        return refOf(
          (
            await client.call(
              "GetCustomer",
              { organization_id: organizationId, external_id: externalId },
              { requestId },
            )
          ).customer,
        );
      } catch (err) {
        if (err instanceof AppError && err.kind === "not_found") return null;
        throw err;
      }
    },
    async setCurrency(organizationId, externalId, currency, requestId) {
      const res = await client.call(
        "UpsertCustomer",
        { organization_id: organizationId, customer: { external_id: externalId, currency } },
        { requestId },
      );
      return refOf(res.customer);
    },
    async frozenTime(organizationId) {
      try {
        const res = await client.call("GetTestClock", { organization_id: organizationId });
        return res.test_clock?.frozen_time ? new Date(res.test_clock.frozen_time) : null;
      } catch (err) {
        if (err instanceof AppError && err.kind === "not_found") return null;
        throw err;
      }
    },
    close: () => client.close(),
  };
}
