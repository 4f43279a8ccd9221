/**
 * Limits on how deep JSON may nest (objects and arrays), so that nothing recursive — a reviver,
 * `JSON.stringify`, a service reading it back, MongoDB (100 levels at most) — meets a value nested
 * thousands of levels deep.
 *
 * - MAX_BODY_DEPTH: a request body the express routes parse (`app.ts`), checked on its bytes
 *   before parsing → 400. The events fast path passes ingest bodies through unparsed: the usage
 *   service checks their properties.
 * - an event's `properties`: MAX_PROPERTIES_DEPTH (`@billing/contracts`), as the usage service
 *   limits them on ingest; the gateway applies it to estimate_fees → 422
 *   `properties: value_is_too_deep`.
 */
export const MAX_BODY_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/**
 * Whether JSON text (UTF-8 bytes) opens more than `max` objects or arrays inside one another,
 * brackets inside strings aside. One pass, no parsing: malformed text is left to the parser.
 */
export function jsonTextDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      for (i++; i < bytes.length; i++) {
        const s = bytes[i];
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}
