import type { CustomerMessages, CustomerViewData } from "@billing/contracts";
import type { DocumentParty, InvoiceDocument } from "@billing/documents";
import { localDateOf } from "@billing/pricing";
import type { Invoice } from "./invoice";

type Customer = CustomerMessages.Customer__Output;
type BillingEntity = CustomerMessages.BillingEntity__Output;

/** The statuses whose invoice has a document (Lago: finalized ones, and voided ones, which were). */
export const DOCUMENT_STATUSES: readonly string[] = ["finalized", "voided"];

const present = (...values: Array<string | null | undefined>) =>
  values.filter((v): v is string => Boolean(v && v.trim()));

/** Address lines in print order: street lines, "zip city", state, country. */
export function addressLines(a: {
  address_line1?: string | null;
  address_line2?: string | null;
  zipcode?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
}): string[] {
  return present(a.address_line1, a.address_line2, present(a.zipcode, a.city).join(" "), a.state, a.country);
}

/** A logo given as a data URL of a PNG or JPEG (how Lago's API takes one); another URL is not fetched (no I/O while rendering). */
export function logoBytes(url: string | null | undefined): Uint8Array | null {
  const m = /^data:image\/(png|jpe?g);base64,([A-Za-z0-9+/=\s]+)$/.exec(url ?? "");
  return m ? Buffer.from(m[2]!, "base64") : null;
}

/** The document's language: the customer's document_locale, else its billing entity's, else English. */
export function documentLocale(customer: Customer | null, entity: BillingEntity | null): string {
  return customer?.billing_configuration?.document_locale || entity?.document_locale || "en";
}

/** The issuer as a document shows it: the billing entity, else just its code (the entity is gone). */
export function issuerParty(entity: BillingEntity | null, billingEntityCode: string | null): DocumentParty {
  return entity
    ? {
        name: entity.name,
        legal_name: entity.legal_name ?? null,
        legal_number: entity.legal_number ?? null,
        tax_identification_number: entity.tax_identification_number ?? null,
        address: addressLines(entity),
        email: entity.email ?? null,
        logo: logoBytes(entity.logo_url),
      }
    : { name: billingEntityCode ?? "", address: [] };
}

/** The customer as a document shows it: from the customer service, else the document's own copy of it. */
export function customerParty(
  customer: Customer | null,
  copy: CustomerViewData,
  externalId: string,
): DocumentParty & { external_id: string } {
  return {
    external_id: externalId,
    name:
      customer?.name || copy.name || [customer?.firstname, customer?.lastname].filter(Boolean).join(" ") || externalId,
    legal_name: customer?.legal_name ?? null,
    legal_number: customer?.legal_number ?? null,
    tax_identification_number: customer?.tax_identification_number ?? null,
    address: customer ? addressLines(customer) : present(copy.country),
    email: customer?.email ?? copy.email ?? null,
  };
}

/**
 * What an invoice's PDF shows, from the invoice as stored (its fees, coupons, taxes and totals as
 * finalized) and its parties as the customer service has them: the issuer from the billing entity,
 * the customer (the invoice's own copy when the customer service no longer has it), the custom
 * sections applicable to the customer, the billing entity's footer. Dated at the issuing date, so
 * the same invoice always gives the same document.
 */
export function invoiceDocument(
  invoice: Invoice,
  customer: Customer | null,
  entity: BillingEntity | null,
): InvoiceDocument {
  const zone = invoice.customer.applicable_timezone || "UTC";
  const day = (d: Date | null) => (d ? localDateOf(d, zone) : null);
  return {
    locale: documentLocale(customer, entity),
    currency: invoice.currency,
    number: invoice.number,
    invoice_type: invoice.invoice_type,
    issuing_date: invoice.issuing_date,
    payment_due_date: invoice.payment_due_date,
    dated_at: new Date(`${invoice.issuing_date}T00:00:00Z`),
    issuer: issuerParty(entity, invoice.billing_entity_code),
    customer: customerParty(customer, invoice.customer, invoice.external_customer_id),
    // every fee but the empty ones (no units, no amount: a charge nothing used), as Lago's PDF
    fees: invoice.fees
      .filter((fee) => fee.amount_cents !== 0 || !/^0*(\.0*)?$/.test(fee.units))
      .map((fee) => ({
        name: fee.item.invoice_display_name || fee.item.name,
        description: fee.description,
        from: day(fee.from),
        to: day(fee.to),
        filters: fee.item.filters,
        filter_display_name: fee.item.filter_invoice_display_name,
        grouped_by: fee.item.grouped_by,
        charge_model: fee.charge_model,
        amount_details: fee.amount_details,
        units: fee.units,
        unit_amount: fee.precise_unit_amount,
        amount_cents: fee.amount_cents,
      })),
    coupons: invoice.credits.map((credit) => ({
      name: credit.item.name || credit.item.code,
      amount_cents: credit.amount_cents,
    })),
    taxes: invoice.applied_taxes.map((t) => ({
      name: t.tax_name,
      rate: t.tax_rate,
      base_amount_cents: t.fees_amount_cents,
      amount_cents: t.amount_cents,
    })),
    totals: {
      fees_amount_cents: invoice.amounts.fees_amount_cents,
      progressive_billing_credit_amount_cents: invoice.amounts.progressive_billing_credit_amount_cents,
      coupons_amount_cents: invoice.amounts.coupons_amount_cents,
      sub_total_excluding_taxes_amount_cents: invoice.amounts.sub_total_excluding_taxes_amount_cents,
      taxes_amount_cents: invoice.amounts.taxes_amount_cents,
      sub_total_including_taxes_amount_cents: invoice.amounts.sub_total_including_taxes_amount_cents,
      credit_notes_amount_cents: invoice.amounts.credit_notes_amount_cents,
      prepaid_credit_amount_cents: invoice.amounts.prepaid_credit_amount_cents,
      total_amount_cents: invoice.amounts.total_amount_cents,
    },
    // as fixed when it was finalized; an invoice finalized before they were kept shows the customer's current ones
    custom_sections: (invoice.applied_custom_sections ?? customer?.applicable_invoice_custom_sections ?? [])
      .filter((s) => s.details)
      .map((s) => ({ name: s.display_name || s.name, details: s.details ?? "" })),
    footer: entity?.invoice_footer ?? null,
  };
}
