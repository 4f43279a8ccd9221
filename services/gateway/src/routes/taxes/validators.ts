import { z } from "zod";
import { decimalInput } from "../../http/fields";

const code = z.string().trim().min(1).max(255);
const name = z.string().trim().min(1).max(255);

/** The `tax` object of PUT /taxes/{code}: every field optional. */
export const taxUpdateSchema = z.object({
  name: name.optional(),
  code: code.optional(),
  rate: decimalInput.optional(),
  description: z.string().max(1000).nullish(),
  applied_to_organization: z.boolean().nullish(),
});

/** The `tax` object of POST /taxes (Lago's TaxCreateInput): name, code and rate required. */
export const taxCreateSchema = taxUpdateSchema.extend({ name, code, rate: decimalInput });

export type TaxInput = z.infer<typeof taxUpdateSchema>;
