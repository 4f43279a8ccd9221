import { randomUUID } from "node:crypto";
import type { CustomerDirectory, CustomerRef } from "../src/peers/customer-directory";

/**
 * The customer service's contract kept in memory, for the catalog's integration tests (the
 * end-to-end tests run the real customer service). Customers are seeded with `add`.
 */
export class MemoryCustomerDirectory implements CustomerDirectory {
  private readonly customers = new Map<string, CustomerRef>();

  add(organizationId: string, externalId: string, fields: Partial<CustomerRef> = {}): CustomerRef {
    const ref: CustomerRef = { id: randomUUID(), external_id: externalId, currency: null, timezone: "UTC", ...fields };
    this.customers.set(`${organizationId}/${externalId}`, ref);
    return ref;
  }

  async find(organizationId: string, externalId: string): Promise<CustomerRef | null> {
    return this.customers.get(`${organizationId}/${externalId}`) ?? null;
  }

  async ensure(organizationId: string, externalId: string, currency: string): Promise<CustomerRef> {
    const found = await this.find(organizationId, externalId);
    if (found?.currency) return found;
    const ref = found ? { ...found, currency } : this.add(organizationId, externalId, { currency });
    this.customers.set(`${organizationId}/${externalId}`, ref);
    return ref;
  }
}
