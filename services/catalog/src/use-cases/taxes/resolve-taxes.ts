import type { Tax } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { liveRecordsNamed } from "../catalog-record-refs";

/** The organization's live taxes named by these codes or ids (each once); unknown ones are left out, the caller decides. */
export function resolveTaxes(
  deps: CatalogDeps,
  organizationId: string,
  keys: { codes: string[]; ids: string[] },
): Promise<Tax[]> {
  return liveRecordsNamed(deps.taxes, organizationId, keys, "tax");
}
