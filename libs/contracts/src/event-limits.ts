/**
 * How deep an event's `properties` may nest objects and arrays (the properties object itself is
 * level 1): the usage service refuses deeper ones on ingest (422 `properties: value_is_too_deep`)
 * before anything is stored, and the gateway applies the same limit to estimate_fees. A value
 * nested thousands of levels deep would overflow the stack of `JSON.stringify` and of whatever
 * reads the stored event back.
 */
export const MAX_PROPERTIES_DEPTH = 32;

/** Whether a parsed JSON value nests objects or arrays deeper than `max` levels (never recurses past `max + 1`). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== "object") return false;
  if (max <= 0) return true;
  for (const child of Array.isArray(value) ? value : Object.values(value)) {
    if (nestedDeeperThan(child, max - 1)) return true;
  }
  return false;
}
