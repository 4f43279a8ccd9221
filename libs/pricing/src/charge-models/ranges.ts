import { type Decimal, type DecimalLike, toDecimal } from "../decimal";

/** One tier of a graduated, graduated_percentage or volume charge, parsed once. */
export interface Range {
  from: Decimal;
  /** null = open-ended. */
  to: Decimal | null;
  /** `from_value` / `to_value` as they appear in amount_details (JSON numbers). */
  fromValue: number;
  toValue: number | null;
  flat: Decimal;
  /** per_unit_amount (graduated, volume) or rate (graduated_percentage). */
  price: Decimal;
}

export function parseRanges(raw: unknown, priceKey: "per_unit_amount" | "rate"): Range[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((entry: Record<string, unknown>) => {
    const to = entry["to_value"];
    const hasTo = to !== null && to !== undefined && to !== "";
    return {
      from: toDecimal(entry["from_value"] as DecimalLike),
      to: hasTo ? toDecimal(to as DecimalLike) : null,
      fromValue: Number(entry["from_value"] ?? 0),
      toValue: hasTo ? Number(to) : null,
      flat: toDecimal(entry["flat_amount"] as DecimalLike),
      price: toDecimal(entry[priceKey] as DecimalLike),
    };
  });
}

/** Index of the last range reached by `units`: the first whose to_value is null or ≥ units. */
export function lastReachedIndex(ranges: readonly Range[], units: Decimal): number {
  for (let i = 0; i < ranges.length; i++) {
    const to = ranges[i]!.to;
    if (to === null || to.gte(units)) return i;
  }
  return ranges.length - 1;
}

/** Adjacent layout (0–10, 10–20, …): every range starts exactly where the previous one ends. */
export function isAdjacentLayout(ranges: readonly Range[]): boolean {
  if (ranges.length < 2) return false;
  for (let i = 1; i < ranges.length; i++) {
    const previousTo = ranges[i - 1]!.to;
    if (!ranges[i]!.from.eq(previousTo ?? 0)) return false;
  }
  return true;
}
