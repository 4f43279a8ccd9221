import { withNullFields } from "../../http/null-fields";
import type { CustomerInput } from "./validators";

export function toCustomerInputMessage(input: CustomerInput) {
  const lists = [
    "billing_configuration",
    "shipping_address",
    "metadata",
    "tax_codes",
    "integration_customers",
    "invoice_custom_section_codes",
  ];
  const bc = input.billing_configuration;
  return {
    ...withNullFields(input, lists),
    billing_configuration: bc
      ? {
          ...withNullFields(bc, ["provider_payment_methods"]),
          provider_payment_methods_set: bc.provider_payment_methods !== undefined,
          provider_payment_methods: bc.provider_payment_methods ?? [],
        }
      : null,
    shipping_address: input.shipping_address ? withNullFields(input.shipping_address) : null,
    metadata_set: input.metadata !== undefined,
    metadata: (input.metadata ?? []).map((m) => ({ ...m, id: m.id ?? undefined })),
    tax_codes_set: input.tax_codes !== undefined,
    tax_codes: input.tax_codes ?? [],
    // Lago treats null like absent here: the choice stays as it is
    invoice_custom_section_codes_set: input.invoice_custom_section_codes != null,
    invoice_custom_section_codes: input.invoice_custom_section_codes ?? [],
    integration_customers_set: input.integration_customers !== undefined,
    integration_customers: (input.integration_customers ?? []).map((i) => withNullFields(i)),
  };
}
