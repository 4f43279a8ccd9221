export interface PageRequest {
  page: number;
  perPage: number;
}

export interface PageMeta {
  current_page: number;
  next_page: number | null;
  prev_page: number | null;
  total_pages: number;
  total_count: number;
}

/** Lago's `meta`; an empty collection answers page 0 of 0, as Lago's server does. */
export function pageMeta(totalCount: number, { page, perPage }: PageRequest): PageMeta {
  if (totalCount === 0) return { current_page: 0, next_page: null, prev_page: null, total_pages: 0, total_count: 0 };
  const totalPages = Math.ceil(totalCount / perPage);
  return {
    current_page: page,
    next_page: page < totalPages ? page + 1 : null,
    // Past the last page there is neither a next nor a previous page (Kaminari's out_of_range).
    prev_page: page > 1 && page <= totalPages ? page - 1 : null,
    total_pages: totalPages,
    total_count: totalCount,
  };
}

export function skipOf({ page, perPage }: PageRequest): number {
  return (page - 1) * perPage;
}

/** A page request as the protos carry it (`billing.common.v1.PageRequest`); absent or 0 fields take Lago's defaults. */
export interface PageMessage {
  page?: { page?: number | null; per_page?: number | null } | null;
}

/** The page a request asks for: page ≥ 1, 1 ≤ per_page ≤ 1000, defaults page 1 of 100 items. */
export function pageRequestOf(request: PageMessage): PageRequest {
  return { page: Math.max(1, request.page?.page || 1), perPage: Math.min(1000, Math.max(1, request.page?.per_page || 100)) };
}
