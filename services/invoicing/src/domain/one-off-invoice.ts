import { derivedUuid } from "@billing/codes";
import type { CustomerViewData, TaxViewData } from "@billing/contracts";
import { addDays, decimalString, fromCents, localDateOf, oneOffFeeAmount } from "@billing/pricing";
import type { FeeDraft, Invoice } from "./invoice";
import { selectTaxes } from "./invoice-fees";
import { immediateInvoice } from "./compose-invoice";
import type { BillingEntityTerms, InvoicingTerms } from "./invoicing-terms";

/** What a one-off invoice reads of an add-on. */
export interface AddOnTerms {
  id: string;
  code: string;
  name: string;
  invoice_display_name: string | null;
  description: string | null;
  amount_cents: number;
  amount_currency: string;
  taxes: TaxViewData[];
}

/** One fee of a one-off invoice as asked, its add-on and explicit taxes resolved. */
export interface OneOffFeeRequest {
  add_on: AddOnTerms;
  units: string | null;
  unit_amount_cents: number | null;
  description: string | null;
  invoice_display_name: string | null;
  /** the taxes of its tax_codes (absent or empty: the add-on's, else the customer's, else the entity's) */
  taxes: TaxViewData[] | null;
  from: Date | null;
  to: Date | null;
}

/**
 * A one-off invoice (Lago's POST /invoices): one add_on fee per requested fee, units × unit amount
 * (the add-on's amount unless given), taxes by billing-rules §3 (explicit tax codes > the add-on's >
 * the customer's > the billing entity's), issued today and stored `generating` to be finalized at
 * once. Pure.
 */
export function newOneOffInvoice(input: {
  id: string;
  organizationId: string;
  customer: { id: string; customer: CustomerViewData };
  entity: BillingEntityTerms | null;
  terms: InvoicingTerms;
  currency: string;
  sandbox: boolean;
  fees: readonly OneOffFeeRequest[];
  now: Date;
}): Invoice {
  const { customer, now } = input;
  const fees: FeeDraft[] = input.fees.map((f, i) => {
    const unit = f.unit_amount_cents ?? f.add_on.amount_cents;
    const amount = oneOffFeeAmount(unit, f.units);
    const from = f.from ?? now;
    const to = f.to ?? now;
    return {
      id: derivedUuid(`${input.id}|fee|${i}`),
      fee_type: "add_on",
      subscription_id: "",
      external_subscription_id: "",
      plan_code: "",
      charge_id: null,
      charge_filter_index: null,
      fixed_charge_id: null,
      billable_metric_code: null,
      charge_model: null,
      aggregation_type: null,
      true_up_parent_fee_id: null,
      true_up: false,
      item: {
        code: f.add_on.code,
        name: f.add_on.name,
        description: f.add_on.description,
        invoice_display_name: f.invoice_display_name || f.add_on.invoice_display_name || f.add_on.name,
        filter_invoice_display_name: null,
        filters: null,
        item_id: f.add_on.id,
        item_type: "AddOn",
        grouped_by: {},
      },
      units: amount.units,
      total_aggregated_units: amount.units,
      events_count: null,
      precise_unit_amount: decimalString(fromCents(unit, input.currency)),
      amount_cents: amount.amount_cents,
      precise_amount_cents: amount.precise_amount_cents,
      pay_in_advance: false,
      invoiceable: true,
      from,
      to,
      amount_details: {},
      properties: { from_datetime: from.toISOString(), to_datetime: to.toISOString(), timestamp: now.toISOString() },
      taxes: selectTaxes(f.taxes ?? [], f.add_on.taxes, customer.customer.taxes ?? [], input.entity?.taxes ?? []),
      description: f.description ?? f.add_on.description,
    };
  });
  const issuing = localDateOf(now, input.terms.timezone);
  return immediateInvoice({
    id: input.id,
    organizationId: input.organizationId,
    customer,
    entity: input.entity,
    sandbox: input.sandbox,
    invoiceType: "one_off",
    billedAt: now,
    lines: [],
    currency: input.currency,
    fees,
    dates: {
      issuing_date: issuing,
      payment_due_date: addDays(issuing, input.terms.netPaymentTerm),
      net_payment_term: input.terms.netPaymentTerm,
    },
    now,
  });
}
