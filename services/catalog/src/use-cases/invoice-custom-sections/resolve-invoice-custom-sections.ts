import { AppError } from "@billing/errors";
import { byName, type InvoiceCustomSection } from "../../domain/invoice-custom-section";
import type { CatalogDeps } from "../deps";

const MAX_KEYS = 10_000;

/** The organization's live sections named by these codes or ids (each once, by name); unknown ones are left out. */
export async function resolveInvoiceCustomSections(
  deps: CatalogDeps,
  organizationId: string,
  keys: { codes: string[]; ids: string[] },
): Promise<InvoiceCustomSection[]> {
  const codes = [...new Set(keys.codes)];
  const ids = [...new Set(keys.ids)];
  if (codes.length + ids.length > MAX_KEYS) throw AppError.badRequest(`at most ${MAX_KEYS} section codes and ids at once`);
  const [byCode, byId] = await Promise.all([
    deps.invoiceCustomSections.findLiveByCodes(organizationId, codes),
    deps.invoiceCustomSections.findLiveByIds(organizationId, ids),
  ]);
  return [...new Map([...byCode, ...byId].map((s) => [s.id, s])).values()].sort(byName);
}

/** The live sections applied to the organization, by name (what a customer gets unless it chose or skips). */
export async function listAppliedInvoiceCustomSections(deps: CatalogDeps, organizationId: string): Promise<InvoiceCustomSection[]> {
  return (await deps.invoiceCustomSections.listApplied(organizationId)).sort(byName);
}
