/**
 * A partial change as a client sends it: a key absent is left alone, a key set
 * to null clears the value. `applyPatch` keeps only the keys listed as patchable.
 */
export type Patch<T> = { [K in keyof T]?: T[K] | null };

export function applyPatch<T extends object>(base: T, patch: Patch<T>, fields: readonly (keyof T)[]): T {
  const next = { ...base };
  for (const field of fields) {
    if (!(field in patch) || patch[field] === undefined) continue;
    (next as Record<keyof T, unknown>)[field] = patch[field];
  }
  return next;
}

/** Lago's error_details accumulator. */
export class Violations {
  private readonly errors: Record<string, string[]> = {};

  add(field: string, code: string): void {
    const list = (this.errors[field] ??= []);
    if (!list.includes(code)) list.push(code);
  }

  mandatory(field: string, value: unknown): boolean {
    const missing = value === null || value === undefined || (typeof value === "string" && !value.trim());
    if (missing) this.add(field, "value_is_mandatory");
    return !missing;
  }

  oneOf(field: string, value: string | null, allowed: readonly string[]): void {
    if (value !== null && !allowed.includes(value)) this.add(field, "value_is_invalid");
  }

  result(): Record<string, string[]> | null {
    return Object.keys(this.errors).length ? this.errors : null;
  }
}
