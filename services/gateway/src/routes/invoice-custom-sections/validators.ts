import { z } from "zod";

const code = z.string().trim().min(1).max(255);
const name = z.string().trim().min(1).max(255);

/** The `invoice_custom_section` object of PUT /invoice_custom_sections/{code}: every field optional. */
export const invoiceCustomSectionUpdateSchema = z.object({
  name: name.optional(),
  code: code.optional(),
  description: z.string().max(1000).nullish(),
  details: z.string().max(10_000).nullish(),
  display_name: z.string().max(255).nullish(),
  applied_to_organization: z.boolean().nullish(),
});

/** The `invoice_custom_section` object of POST /invoice_custom_sections: name and code required. */
export const invoiceCustomSectionCreateSchema = invoiceCustomSectionUpdateSchema.extend({ name, code });

export type InvoiceCustomSectionInput = z.infer<typeof invoiceCustomSectionUpdateSchema>;
