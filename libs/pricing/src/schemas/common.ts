import { z } from "zod";

/** A decimal sent as a string ("0.05", "10"), as the spec requires for money and rates. */
export const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/, "value_is_not_valid_number");

/** A non-negative decimal string: no negative prices. */
export const nonNegativeDecimal = decimalString.refine((v) => !v.startsWith("-"), "value_is_out_of_range");

export const optionalNonNegativeDecimal = nonNegativeDecimal.nullish();

/** Keys splitting one charge into one fee per group of event property values. */
export const groupKeys = z.array(z.string().min(1)).nullish();

export const groupingProperties = { pricing_group_keys: groupKeys, grouped_by: groupKeys };

/** Range bounds: numbers (or numeric strings), to_value null for the open-ended last range. */
export const bound = z.union([
  z.number().nonnegative(),
  z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .transform(Number),
]);

interface RangeLike {
  from_value: number;
  to_value: number | null | undefined;
}

/**
 * Range rules: first from_value 0 (Lago also accepts 1), each from_value equal to the previous
 * to_value or to it + 1, every non-last to_value above its from_value, the last one open (null).
 */
export function checkRanges(ranges: readonly RangeLike[], key: string, ctx: z.RefinementCtx): void {
  if (ranges.length === 0) {
    ctx.addIssue({ code: "custom", message: "value_is_mandatory", path: [key] });
    return;
  }
  ranges.forEach((range, i) => {
    const path = [key, i];
    const last = i === ranges.length - 1;
    if (i === 0 && range.from_value !== 0 && range.from_value !== 1) {
      ctx.addIssue({ code: "custom", message: "invalid_graduated_ranges", path: [...path, "from_value"] });
    }
    const previous = ranges[i - 1];
    if (previous) {
      const prevTo = previous.to_value ?? NaN;
      if (range.from_value !== prevTo && range.from_value !== prevTo + 1) {
        ctx.addIssue({ code: "custom", message: "invalid_graduated_ranges", path: [...path, "from_value"] });
      }
    }
    if (last && range.to_value != null)
      ctx.addIssue({ code: "custom", message: "invalid_graduated_ranges", path: [...path, "to_value"] });
    if (!last && (range.to_value == null || range.to_value <= range.from_value)) {
      ctx.addIssue({ code: "custom", message: "invalid_graduated_ranges", path: [...path, "to_value"] });
    }
  });
}
