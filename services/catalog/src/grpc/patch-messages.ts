/** Proto inputs → patches: shared by the catalog's message mappers. */

/** The fields of a proto input a patch takes: each as sent, null when sent as null, absent when not sent. */
export type PatchOf<M, K extends keyof M> = { [P in K]?: Exclude<M[P], undefined> | null };

/**
 * A proto input (optional fields absent when not sent, `null_fields` for explicit nulls) → a patch
 * of those fields. The field names are checked against the message type.
 */
export function patchOf<M extends object, K extends keyof M & string>(
  message: M | null | undefined,
  fields: readonly K[],
): PatchOf<M, K> {
  const patch: PatchOf<M, K> = {};
  if (!message) return patch;
  const nulls = (message as { null_fields?: string[] }).null_fields ?? [];
  for (const field of fields) {
    if (nulls.includes(field)) patch[field] = null;
    else if (message[field] !== undefined && message[field] !== null)
      patch[field] = message[field] as Exclude<M[K], undefined>;
  }
  return patch;
}
