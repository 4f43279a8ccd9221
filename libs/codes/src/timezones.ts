/** IANA time zone names, canonical or alias, as the runtime's time zone database knows them. */
const known = new Map<string, boolean>();

/** Lago accepts "GMT+12" style names; the time zone database spells them "Etc/GMT+12". */
export function ianaTimezone(value: string): string {
  return /^GMT[+-]\d{1,2}$/.test(value) ? `Etc/${value}` : value;
}

export function isTimezone(name: string): boolean {
  const value = ianaTimezone(name);
  const cached = known.get(value);
  if (cached !== undefined) return cached;
  let valid = false;
  if (/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: value });
      valid = true;
    } catch {
      valid = false;
    }
  }
  if (known.size < 10_000) known.set(value, valid);
  return valid;
}
