import { Rpc, type CatalogMessages, type CatalogRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";

/** The catalog's invoice custom sections, for the sections a wallet, its rule or a transaction chooses. */
export interface CustomSections {
  /** The ids of the organization's live sections of these codes, in the codes' order (unknown codes are left out, as Lago does). */
  idsOfCodes(organizationId: string, codes: readonly string[]): Promise<string[]>;
  /** The organization's live sections of these ids, by id (a deleted one is left out). */
  byIds(
    organizationId: string,
    ids: readonly string[],
  ): Promise<Map<string, CatalogMessages.InvoiceCustomSection__Output>>;
}

export function grpcCustomSections(address: string): CustomSections & { close(): void } {
  const client = new RpcClient<CatalogRpc["invoiceCustomSections"]>(Rpc.catalog.invoiceCustomSections, address, 5_000);
  const resolve = async (organizationId: string, keys: { codes: readonly string[]; ids: readonly string[] }) =>
    (
      await client.call("ResolveInvoiceCustomSections", {
        organization_id: organizationId,
        codes: [...keys.codes],
        ids: [...keys.ids],
      })
    ).invoice_custom_sections ?? [];
  return {
    async idsOfCodes(organizationId, codes) {
      const unique = [...new Set(codes)];
      if (unique.length === 0) return [];
      const idOf = new Map((await resolve(organizationId, { codes: unique, ids: [] })).map((s) => [s.code, s.svc_id]));
      return unique.flatMap((code) => idOf.get(code) ?? []);
    },
    async byIds(organizationId, ids) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Map();
      return new Map((await resolve(organizationId, { codes: [], ids: unique })).map((s) => [s.svc_id, s]));
    },
    close: () => client.close(),
  };
}
