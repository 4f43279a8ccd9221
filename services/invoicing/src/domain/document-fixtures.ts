import type { CustomerMessages } from "@billing/contracts";
import type { CreditNote } from "./credit-note";
import type { Fee, Invoice } from "./invoice";
import { customerFixture } from "./test-fixtures";

/** A finalized invoice of a graduated charge fee and a subscription fee, taxed and discounted, for the documents' tests. */
export function finalizedInvoiceFixture(overrides: Partial<Invoice> = {}): Invoice {
  const fee = (f: Partial<Fee>): Fee => ({
    id: "fee_1", fee_type: "charge", subscription_id: "sub_1", external_subscription_id: "s1", plan_code: "starter", charge_id: "ch_1", charge_filter_index: null,
    fixed_charge_id: null, billable_metric_code: "calls", charge_model: "graduated", aggregation_type: "count_agg", true_up_parent_fee_id: null, true_up: false,
    item: {
      code: "calls", name: "Calls", description: null, invoice_display_name: "API calls", filter_invoice_display_name: null, filters: { region: ["eu"] },
      item_id: "bm_1", item_type: "BillableMetric", grouped_by: { country: "fr" },
    },
    units: "150.0", total_aggregated_units: "150.0", events_count: 150, precise_unit_amount: "0.1033333", amount_cents: 1_550, precise_amount_cents: "1550.0",
    pay_in_advance: false, invoiceable: true, from: new Date("2024-01-01T00:00:00Z"), to: new Date("2024-01-31T23:59:59Z"),
    amount_details: { graduated_ranges: [
      { from_value: 0, to_value: 100, flat_unit_amount: "5.0", per_unit_amount: "0.1", units: "100.0", per_unit_total_amount: "10.0", total_with_flat_amount: "15.0" },
      { from_value: 101, to_value: null, flat_unit_amount: "0.0", per_unit_amount: "0.01", units: "50.0", per_unit_total_amount: "0.5", total_with_flat_amount: "0.5" },
    ] },
    properties: {}, taxes: [], description: null, precise_coupons_amount_cents: "0", taxes_amount_cents: 310, taxes_precise_amount_cents: "310.0", taxes_rate: 20,
    sub_total_excluding_taxes_precise_amount_cents: "1550.0", total_amount_cents: 1_860, applied_taxes: [],
    ...f,
  });
  return {
    id: "inv_1", organization_id: "org_1", customer_id: "cus_1", external_customer_id: "acme", billing_entity_code: "default", sandbox: true,
    invoice_type: "subscription", billed_at: new Date("2024-02-01T00:00:00Z"), part: 0, lines: [], status: "finalized", payment_status: "pending",
    number: "ACM-001-0001", sequential_id: 1, currency: "EUR", issuing_date: "2024-02-01", payment_due_date: "2024-02-01", net_payment_term: 0,
    expected_finalization_date: null, finalize_at: null, customer: customerFixture({ applicable_timezone: "Europe/Paris" }),
    fees: [
      fee({}),
      fee({
        id: "fee_0", fee_type: "subscription", charge_id: null, charge_model: null, billable_metric_code: null, units: "1.0", precise_unit_amount: "100.0", amount_cents: 10_000,
        amount_details: {}, item: { code: "starter", name: "Starter", description: null, invoice_display_name: "Starter plan", filter_invoice_display_name: null, filters: null, item_id: "sub_1", item_type: "Subscription", grouped_by: {} },
      }),
      fee({ id: "fee_2", units: "0.0", amount_cents: 0, amount_details: { graduated_ranges: [] }, item: { ...fee({}).item, invoice_display_name: "Unused metric" } }),
    ],
    amounts: {
      fees_amount_cents: 11_550, progressive_billing_credit_amount_cents: 0, coupons_amount_cents: 1_000, sub_total_excluding_taxes_amount_cents: 10_550, taxes_amount_cents: 2_110,
      taxes_rate: 20, sub_total_including_taxes_amount_cents: 12_660, credit_notes_amount_cents: 0, prepaid_credit_amount_cents: 660, total_amount_cents: 12_000,
    },
    applied_taxes: [{ tax_code: "vat", tax_name: "TVA", tax_rate: "20", tax_id: "tax_1", tax_description: null, amount_cents: 2_110, fees_amount_cents: 10_550 }],
    credits: [{ id: "cr_1", applied_coupon_id: "ac_1", amount_cents: 1_000, currency: "EUR", item: { id: "cp_1", type: "coupon", code: "welcome", name: "Bienvenue" } }],
    metadata: [], finalizing: null, revision: 3, created_at: new Date("2024-02-01T00:00:00Z"), updated_at: new Date("2024-02-01T00:00:00Z"),
    ...overrides,
  };
}

/** The customer service's customer and billing entity of that invoice (as GetCustomer and GetBillingEntity answer them). */
export function documentPartiesFixture(locale: string | null = "fr"): { customer: CustomerMessages.Customer__Output; entity: CustomerMessages.BillingEntity__Output } {
  const customer = {
    svc_id: "cus_1", external_id: "acme", name: "Acmé", legal_name: "Acmé SARL", legal_number: null, tax_identification_number: "FR0011", email: "ap@acme.fr",
    address_line1: "3 place de l'Opéra", address_line2: null, zipcode: "75009", city: "Paris", state: null, country: "FR", firstname: null, lastname: null,
    billing_entity_code: "default",
    billing_configuration: { document_locale: locale },
    applicable_invoice_custom_sections: [
      { svc_id: "ics_1", name: "bank", code: "bank", description: null, details: "IBAN FR76 3000 6000 0112 3456 7890 189", display_name: "Coordonnées bancaires" },
      { svc_id: "ics_2", name: "empty", code: "empty", description: null, details: null, display_name: null },
    ],
  } as unknown as CustomerMessages.Customer__Output;
  const entity = {
    svc_id: "be_1", code: "default", name: "Électricité Générale", legal_name: null, legal_number: "RCS 123", tax_identification_number: "FR99", email: null,
    address_line1: "12 rue de la Paix", address_line2: null, zipcode: "75002", city: "Paris", state: null, country: "FR", document_locale: "en",
    invoice_footer: "Merci !", logo_url: null,
  } as unknown as CustomerMessages.BillingEntity__Output;
  return { customer, entity };
}

/** A 18.60 credit note (15.50 + 20% TVA) on that invoice's API calls fee, for the documents' tests. */
export function creditNoteFixture(overrides: Partial<CreditNote> = {}): CreditNote {
  const invoice = finalizedInvoiceFixture();
  return {
    id: "cn_1", organization_id: "org_1", customer_id: "cus_1", external_customer_id: "acme", customer: invoice.customer, invoice_id: invoice.id,
    invoice_number: invoice.number, billing_entity_code: "default", sequential_id: 1, number: "ACM-001-0001-CN001", issuing_date: "2024-02-10",
    reason: "duplicated_charge", description: "Appels facturés deux fois", currency: "EUR", credit_status: "available", refund_status: null,
    total_amount_cents: 1_860, credit_amount_cents: 1_860, refund_amount_cents: 0, offset_amount_cents: 0, balance_amount_cents: 1_860,
    taxes_amount_cents: 310, precise_taxes_amount_cents: "310.0", taxes_rate: 20, sub_total_excluding_taxes_amount_cents: 1_550,
    coupons_adjustment_amount_cents: 0, precise_coupons_adjustment_amount_cents: "0",
    items: [{ id: "cni_1", fee_id: "fee_1", amount_cents: 1_550 }],
    applied_taxes: [{ id: "cnt_1", tax_code: "vat", tax_name: "TVA", tax_rate: "20", tax_id: "tax_1", tax_description: null, base_amount_cents: 1_550, amount_cents: 310 }],
    consumptions: [], voided_at: null, refunded_at: null, revision: 1,
    created_at: new Date("2024-02-10T09:30:00Z"), updated_at: new Date("2024-02-10T09:30:00Z"),
    ...overrides,
  };
}
