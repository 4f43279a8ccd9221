/** Proto inputs → patches: shared by the catalog's message mappers. */

/** A proto input (optional fields absent when not sent, `null_fields` for explicit nulls) → a patch of those fields. */
export function patchOf(message: object | null | undefined, fields: readonly string[]): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (!message) return patch;
  const values = message as Record<string, unknown>;
  const nulls = (values.null_fields as string[] | undefined) ?? [];
  for (const field of fields) {
    if (nulls.includes(field)) patch[field] = null;
    else if (values[field] !== undefined && values[field] !== null) patch[field] = values[field];
  }
  return patch;
}

/** JSON text carried in a proto string field (free-form properties, metadata); empty = absent. */
export const json = (text: string | null | undefined): any => (typeof text === "string" && text ? JSON.parse(text) : undefined);
