import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COUNTRY_CODES, currencyExponent, isCountryCode, isCurrencyCode, isTimezone } from "./index";

const openapi = JSON.parse(
  readFileSync(new URL("../../../../shared/reference/lago-openapi-svc.json", import.meta.url), "utf8"),
);

describe("codes", () => {
  it("knows exactly the country codes Lago's API accepts", () => {
    const lago: string[] = openapi.components.schemas.Country.enum;
    expect([...COUNTRY_CODES].sort()).toEqual([...lago].sort());
  });

  it("accepts every currency Lago's API accepts", () => {
    const lago: string[] = openapi.components.schemas.Currency.enum;
    expect(lago.filter((c) => !isCurrencyCode(c))).toEqual([]);
  });

  it("accepts every timezone Lago's API accepts", () => {
    const lago: string[] = openapi.components.schemas.Timezone.enum;
    expect(lago.filter((t) => !isTimezone(t))).toEqual([]);
  });

  it("rejects unknown codes", () => {
    expect(isCountryCode("XX")).toBe(false);
    expect(isCountryCode("fr")).toBe(false);
    expect(isCurrencyCode("ABC")).toBe(false);
    expect(isTimezone("Mars/Olympus")).toBe(false);
  });

  it("gives ISO 4217 exponents", () => {
    expect([
      currencyExponent("USD"),
      currencyExponent("JPY"),
      currencyExponent("KWD"),
      currencyExponent("CLF"),
    ]).toEqual([2, 0, 3, 4]);
  });
});
