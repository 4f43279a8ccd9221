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

/**
 * Lago's `meta` (Kaminari's): the page asked for, even past the last one; an empty collection's
 * first page is page 1 of 0 pages, with neither a next nor a previous page.
 */
export function pageMeta(totalCount: number, { page, perPage }: PageRequest): PageMeta {
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
  return {
    page: Math.max(1, request.page?.page || 1),
    perPage: Math.min(1000, Math.max(1, request.page?.per_page || 100)),
  };
}
