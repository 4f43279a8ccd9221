/** Helpers shared by the catalog's handlers: proto inputs → patches, page requests. */
export type PageMessage = { page: { page: number; per_page: number } | null };

export function pageOf(request: PageMessage) {
  return { page: Math.max(1, request.page?.page || 1), perPage: Math.min(1000, Math.max(1, request.page?.per_page || 100)) };
}

/** A proto input (optional fields absent when not sent, `null_fields` for explicit nulls) → a patch of those fields. */
export function patchOf(message: Record<string, unknown> | null | undefined, fields: readonly string[]): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (!message) return patch;
  const nulls = (message.null_fields as string[] | undefined) ?? [];
  for (const field of fields) {
    if (nulls.includes(field)) patch[field] = null;
    else if (message[field] !== undefined && message[field] !== null) patch[field] = message[field];
  }
  return patch;
}
