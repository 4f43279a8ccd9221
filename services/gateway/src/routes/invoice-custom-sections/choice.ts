import { z } from "zod";

/** Lago's InvoiceCustomSectionInput on a resource (a subscription, a one-off invoice): the sections its invoices show, by the organization's codes. */
export const invoiceCustomSectionChoice = z.object({
  skip_invoice_custom_sections: z.boolean().nullish(),
  invoice_custom_section_codes: z.array(z.string().max(255)).max(100).nullish(),
});
export type InvoiceCustomSectionChoice = z.infer<typeof invoiceCustomSectionChoice>;

/** The choice → the proto InvoiceCustomSectionChoice (a flag or codes sent as null: not sent, as Lago's `nil`). */
export function sectionChoiceMessage(c: InvoiceCustomSectionChoice | null | undefined) {
  if (!c) return undefined;
  const codes = c.invoice_custom_section_codes;
  return {
    skip_invoice_custom_sections: c.skip_invoice_custom_sections ?? undefined,
    codes_set: codes != null,
    invoice_custom_section_codes: codes ?? [],
  };
}
