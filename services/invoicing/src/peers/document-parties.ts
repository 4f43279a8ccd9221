import { Rpc, type CatalogRpc, type CustomerMessages, type CustomerRpc } from "@billing/contracts";
import { isAppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";
import type { CustomSection } from "../domain/invoice";

/**
 * What an invoice's document shows of its parties, from the customer service: the customer (its
 * address, tax id, document locale, applicable invoice custom sections) and its billing entity
 * (the issuer: name, address, logo, tax id, footer, document locale). Read when the document is
 * generated (once: the document is kept); either may be gone (null).
 */
export interface DocumentParties {
  get(
    organizationId: string,
    externalCustomerId: string,
    billingEntityCode: string | null,
  ): Promise<{
    customer: CustomerMessages.Customer__Output | null;
    entity: CustomerMessages.BillingEntity__Output | null;
  }>;
  /**
   * The invoice custom sections the customer's invoices show now (Lago's
   * applicable_invoice_custom_sections: its own, or the organization's, none when it skips them);
   * none for a customer that is gone.
   */
  sections(organizationId: string, externalCustomerId: string): Promise<CustomSection[]>;
  /** The organization's live sections of these codes or ids (the catalog's, by name; unknown or deleted ones are left out), for resources' own choices. */
  resolveSections(
    organizationId: string,
    keys: { codes?: readonly string[]; ids?: readonly string[] },
  ): Promise<Array<{ id: string; section: CustomSection }>>;
  close(): void;
}

const orNull = async <T>(call: Promise<T>): Promise<T | null> => {
  try {
    return await call;
  } catch (err) {
    if (isAppError(err) && err.kind === "not_found") return null;
    throw err;
  }
};

export function grpcDocumentParties(address: string, catalogAddress: string): DocumentParties {
  const client = new RpcClient<CustomerRpc>(Rpc.customer, address, 5_000);
  const catalog = new RpcClient<CatalogRpc["invoiceCustomSections"]>(
    Rpc.catalog.invoiceCustomSections,
    catalogAddress,
    5_000,
  );
  const customerOf = async (organizationId: string, externalId: string) =>
    (await orNull(client.call("GetCustomer", { organization_id: organizationId, external_id: externalId })))
      ?.customer ?? null;
  return {
    async get(organizationId, externalCustomerId, billingEntityCode) {
      const customer = await customerOf(organizationId, externalCustomerId);
      const code = billingEntityCode ?? customer?.billing_entity_code ?? "";
      const entityReply = code
        ? await orNull(client.call("GetBillingEntity", { organization_id: organizationId, code }))
        : null;
      return { customer, entity: entityReply?.billing_entity ?? null };
    },
    async sections(organizationId, externalCustomerId) {
      return ((await customerOf(organizationId, externalCustomerId))?.applicable_invoice_custom_sections ?? []).map(
        (section) => ({
          code: section.code,
          name: section.name,
          display_name: section.display_name ?? null,
          details: section.details ?? null,
        }),
      );
    },
    async resolveSections(organizationId, { codes = [], ids = [] }) {
      if (codes.length === 0 && ids.length === 0) return [];
      const reply = await catalog.call("ResolveInvoiceCustomSections", {
        organization_id: organizationId,
        codes: [...codes],
        ids: [...ids],
      });
      return (reply.invoice_custom_sections ?? []).map((s) => ({
        id: s.svc_id,
        section: { code: s.code, name: s.name, display_name: s.display_name ?? null, details: s.details ?? null },
      }));
    },
    close: () => {
      client.close();
      catalog.close();
    },
  };
}
