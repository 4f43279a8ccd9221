import { AppError } from "@billing/errors";
import type { CatalogRecord } from "../domain/types";
import type { CatalogRepository } from "../persistence/catalog-repository";

/** References between code-addressed catalog records (taxes, metrics, sections…): codes in, live records out. */

const MAX_KEYS = 10_000;

/**
 * The ids of the organization's live records of these codes, each code once in the order given;
 * an unknown code → 404 `<resource>_not_found`.
 */
export async function liveIdsOf<T extends CatalogRecord>(
  repo: CatalogRepository<T>,
  organizationId: string,
  codes: string[],
  resource: string,
): Promise<string[]> {
  const unique = [...new Set(codes)];
  const byCode = new Map((await repo.findLiveByCodes(organizationId, unique)).map((r) => [r.code, r.id]));
  return unique.map((code) => {
    const id = byCode.get(code);
    if (!id) throw AppError.notFound(resource);
    return id;
  });
}

/**
 * The organization's live records named by these codes or ids, each once; unknown ones are left
 * out (the caller decides). More than 10,000 keys → 400, naming `what`.
 */
export async function liveRecordsNamed<T extends CatalogRecord>(
  repo: CatalogRepository<T>,
  organizationId: string,
  keys: { codes: string[]; ids: string[] },
  what: string,
): Promise<T[]> {
  const codes = [...new Set(keys.codes)];
  const ids = [...new Set(keys.ids)];
  if (codes.length + ids.length > MAX_KEYS)
    throw AppError.badRequest(`at most ${MAX_KEYS} ${what} codes and ids at once`);
  const [byCode, byId] = await Promise.all([
    repo.findLiveByCodes(organizationId, codes),
    repo.findLiveByIds(organizationId, ids),
  ]);
  return [...new Map([...byCode, ...byId].map((r) => [r.id, r])).values()];
}

/** The organization's live records of these ids, by id; any unknown id → 404 `<resource>_not_found`. */
export async function liveRecordsById<T extends CatalogRecord>(
  repo: CatalogRepository<T>,
  organizationId: string,
  ids: string[],
  resource: string,
): Promise<Map<string, T>> {
  const unique = [...new Set(ids)];
  const byId = new Map((await repo.findLiveByIds(organizationId, unique)).map((r) => [r.id, r]));
  if (unique.some((id) => !byId.has(id))) throw AppError.notFound(resource);
  return byId;
}
