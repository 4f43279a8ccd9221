import type { TaxViewData } from "@billing/contracts";
import { Rpc, type CatalogRpc } from "@billing/contracts";
import { AppError, isAppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";
import type { AddOnTerms } from "../domain/one-off-invoice";

/** The catalog's add-ons and taxes (one-off invoices). */
export interface AddOns {
  /** null when the organization has no such add-on */
  get(organizationId: string, code: string): Promise<AddOnTerms | null>;
  /** The taxes of these codes; an unknown code → the catalog's NOT_FOUND tax_not_found. */
  taxes(organizationId: string, codes: readonly string[]): Promise<TaxViewData[]>;
  close(): void;
}

type TaxMessage = {
  svc_id: string;
  name: string;
  code: string;
  description?: string | null;
  rate: string;
  applied_to_organization: boolean;
  created_at: string;
};
const taxView = (t: TaxMessage): TaxViewData => ({
  svc_id: t.svc_id,
  name: t.name,
  code: t.code,
  description: t.description ?? null,
  rate: t.rate,
  applied_to_organization: t.applied_to_organization,
  created_at: t.created_at,
});

export function grpcAddOns(address: string): AddOns {
  const addOns = new RpcClient<CatalogRpc["addOns"]>(Rpc.catalog.addOns, address, 5_000);
  const taxes = new RpcClient<CatalogRpc["taxes"]>(Rpc.catalog.taxes, address, 5_000);
  return {
    async get(organizationId, code) {
      try {
        const { add_on: a } = await addOns.call("GetAddOn", { organization_id: organizationId, code });
        if (!a) return null;
        return {
          id: a.svc_id,
          code: a.code,
          name: a.name,
          invoice_display_name: a.invoice_display_name ?? null,
          description: a.description ?? null,
          amount_cents: Number(a.amount_cents),
          amount_currency: a.amount_currency,
          taxes: a.taxes.map(taxView),
        };
      } catch (err) {
        if (isAppError(err) && err.kind === "not_found") return null;
        throw err;
      }
    },
    async taxes(organizationId, codes) {
      if (codes.length === 0) return [];
      const res = await taxes.call("ResolveTaxes", { organization_id: organizationId, codes: [...codes], ids: [] });
      // the catalog answers the codes it knows: one missing is Lago's tax_not_found
      const known = new Set(res.taxes.map((t) => t.code));
      if (codes.some((c) => !known.has(c))) throw AppError.notFound("tax");
      return res.taxes.map(taxView);
    },
    close() {
      addOns.close();
      taxes.close();
    },
  };
}
