import { z } from "zod";
import { currencyCode } from "../../http/fields";

const code = z.string().trim().min(1).max(255);
const name = z.string().trim().min(1).max(255);
const amountCents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const currency = currencyCode.required;

/** The `add_on` object of PUT /add_ons/{code}: every field optional. */
export const addOnUpdateSchema = z.object({
  name: name.optional(),
  code: code.optional(),
  invoice_display_name: z.string().max(255).nullish(),
  description: z.string().max(1000).nullish(),
  amount_cents: amountCents.optional(),
  amount_currency: currency.optional(),
  tax_codes: z.array(z.string().min(1).max(255)).max(50).nullish(),
});

/** The `add_on` object of POST /add_ons: name, code, amount_cents and amount_currency required. */
export const addOnCreateSchema = addOnUpdateSchema.extend({
  name,
  code,
  amount_cents: amountCents,
  amount_currency: currency,
});

export type AddOnInput = z.infer<typeof addOnUpdateSchema>;
