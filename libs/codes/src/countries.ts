/**
 * ISO 3166-1 alpha-2 country codes, read from the runtime's ICU region data.
 * ICU also names codes that are not assigned countries (exceptionally or
 * transitionally reserved, or user-assigned); those are excluded here.
 */
const NOT_ASSIGNED = new Set(
  "AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB XK YD YU ZR".split(" "),
);

function assignedCountryCodes(): string[] {
  const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  const codes: string[] = [];
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = names.of(code);
      if (name && name !== code && !name.includes("Unknown") && !NOT_ASSIGNED.has(code)) codes.push(code);
    }
  }
  return codes;
}

export const COUNTRY_CODES: readonly string[] = assignedCountryCodes();
const countrySet = new Set(COUNTRY_CODES);

export function isCountryCode(value: string): boolean {
  return countrySet.has(value);
}
