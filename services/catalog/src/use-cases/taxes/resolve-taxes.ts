import { AppError } from "@billing/errors";
import type { Tax } from "../../domain/types";
import type { CatalogDeps } from "../deps";

const MAX_KEYS = 10_000;

/** The organization's live taxes named by these codes or ids (each once); unknown ones are left out, the caller decides. */
export async function resolveTaxes(deps: CatalogDeps, organizationId: string, keys: { codes: string[]; ids: string[] }): Promise<Tax[]> {
  const codes = [...new Set(keys.codes)];
  const ids = [...new Set(keys.ids)];
  if (codes.length + ids.length > MAX_KEYS) throw AppError.badRequest(`at most ${MAX_KEYS} tax codes and ids at once`);
  const [byCode, byId] = await Promise.all([
    deps.taxes.findLiveByCodes(organizationId, codes),
    deps.taxes.findLiveByIds(organizationId, ids),
  ]);
  return [...new Map([...byCode, ...byId].map((t) => [t.id, t])).values()];
}
