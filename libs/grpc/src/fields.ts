import { AppError } from "@billing/errors";

/** An ISO 8601 instant a message carries in `field` (a string on the wire); missing or unreadable → 422 invalid_date. */
export function instantOf(value: string, field: string): Date {
  const at = new Date(value);
  if (!value || Number.isNaN(at.getTime())) throw AppError.validation({ [field]: ["invalid_date"] });
  return at;
}
