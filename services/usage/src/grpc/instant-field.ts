import { AppError } from "@billing/errors";

/** A request's ISO 8601 instant → a Date; absent or not an instant: 422 with `code` on the field. */
export function instantField(value: string, field: string, code: "value_is_invalid" | "invalid_date"): Date {
  const at = new Date(value);
  if (!value || Number.isNaN(at.getTime())) throw AppError.validation({ [field]: [code] });
  return at;
}
