import { amountDetailsFromProto, feePropertiesFromProto, type InvoicingMessages as M } from "@billing/contracts";
import { filterValues, or } from "./presenting";
import { presentSubscription } from "./subscriptions";
import type { feeObject, invoiceObject, listedFeeObject, ViewOf } from "./schemas";

/** Lago's FeeObject of an invoice's fee (`properties`: the charge properties it was priced with). */
export function presentFee(f: M.Fee__Output) {
  const item = f.item;
  return {
    svc_id: f.svc_id ?? "",
    svc_charge_id: or(f.svc_charge_id),
    svc_charge_filter_id: or(f.svc_charge_filter_id),
    svc_fixed_charge_id: or(f.svc_fixed_charge_id),
    svc_invoice_id: f.svc_invoice_id ?? "",
    svc_true_up_fee_id: or(f.svc_true_up_fee_id),
    svc_true_up_parent_fee_id: or(f.svc_true_up_parent_fee_id),
    svc_subscription_id: or(f.svc_subscription_id),
    svc_customer_id: f.svc_customer_id ?? "",
    external_customer_id: f.external_customer_id ?? "",
    external_subscription_id: or(f.external_subscription_id),
    amount_cents: f.amount_cents,
    precise_amount: f.precise_amount,
    precise_total_amount: f.precise_total_amount,
    amount_currency: f.amount_currency,
    taxes_amount_cents: f.taxes_amount_cents,
    taxes_precise_amount: f.taxes_precise_amount,
    taxes_rate: f.taxes_rate,
    units: f.units,
    precise_unit_amount: f.precise_unit_amount,
    total_aggregated_units: f.total_aggregated_units,
    total_amount_cents: f.total_amount_cents,
    total_amount_currency: f.total_amount_currency,
    events_count: or(f.events_count),
    pay_in_advance: f.pay_in_advance,
    invoiceable: f.invoiceable,
    from_date: or(f.from_date),
    to_date: or(f.to_date),
    payment_status: f.payment_status as ViewOf<typeof feeObject>["payment_status"],
    created_at: f.created_at ?? "",
    succeeded_at: or(f.succeeded_at),
    failed_at: or(f.failed_at),
    refunded_at: or(f.refunded_at),
    event_transaction_id: or(f.event_transaction_id),
    description: or(f.description),
    precise_coupons_amount_cents: f.precise_coupons_amount_cents,
    sub_total_excluding_taxes_amount_cents: f.sub_total_excluding_taxes_amount_cents,
    sub_total_excluding_taxes_precise_amount_cents: f.sub_total_excluding_taxes_precise_amount_cents,
    amount_details: amountDetailsFromProto(f.amount_details),
    self_billed: f.self_billed,
    item: {
      type: (item?.type ?? "charge") as ViewOf<typeof feeObject>["item"]["type"],
      code: item?.code ?? "",
      name: item?.name ?? "",
      description: or(item?.description),
      invoice_display_name: item?.invoice_display_name ?? "",
      filter_invoice_display_name: or(item?.filter_invoice_display_name),
      filters: item?.filters ? filterValues(item.filters.values) : null,
      svc_item_id: item?.svc_item_id ?? "",
      item_type: (item?.item_type ?? "BillableMetric") as ViewOf<typeof feeObject>["item"]["item_type"],
      grouped_by: item?.grouped_by ?? {},
    },
    applied_taxes: f.applied_taxes.map((t) => ({
      svc_id: t.svc_id,
      svc_tax_id: or(t.svc_tax_id),
      tax_name: t.tax_name,
      tax_code: t.tax_code,
      tax_rate: t.tax_rate,
      tax_description: or(t.tax_description),
      amount_cents: t.amount_cents,
      amount_currency: t.amount_currency,
      created_at: t.created_at,
      svc_fee_id: t.svc_fee_id,
    })),
    properties: feePropertiesFromProto(f.properties),
  } satisfies ViewOf<typeof feeObject>;
}

/** Lago's FeeObject as GET /fees lists it (and fee webhooks send it): a fee with `pricing_unit_details`. */
export const presentListedFee = (f: M.Fee__Output) =>
  ({
    ...presentFee(f),
    svc_invoice_id: or(f.svc_invoice_id),
    payment_status: f.payment_status as ViewOf<typeof listedFeeObject>["payment_status"],
    pricing_unit_details: null,
  }) satisfies ViewOf<typeof listedFeeObject>;

/** The customer as an invoice or a credit note shows it (the fields of Lago's CustomerObject invoicing keeps). */
export function presentInvoiceCustomer(c: M.InvoiceCustomer__Output | null) {
  return {
    svc_id: c?.svc_id ?? "",
    sequential_id: c?.sequential_id ?? 0,
    slug: or(c?.slug),
    external_id: c?.external_id ?? "",
    billing_entity_code: or(c?.billing_entity_code),
    name: or(c?.name),
    email: or(c?.email),
    currency: or(c?.currency),
    country: or(c?.country),
    timezone: or(c?.timezone),
    applicable_timezone: c?.applicable_timezone ?? "UTC",
    net_payment_term: or(c?.net_payment_term),
    finalize_zero_amount_invoice: or(c?.finalize_zero_amount_invoice),
    created_at: c?.created_at ?? "",
    updated_at: c?.updated_at ?? "",
  } satisfies ViewOf<typeof invoiceObject>["customer"];
}

/**
 * Lago's InvoiceObject (the extended one: billing periods, credits, fees, subscriptions), from the
 * invoicing service's typed invoice. Lago's `error_details` are not produced: [].
 */
export function presentInvoice(m: M.Invoice__Output) {
  return {
    svc_id: m.svc_id,
    billing_entity_code: or(m.billing_entity_code),
    sequential_id: or(m.sequential_id),
    number: m.number,
    issuing_date: m.issuing_date,
    payment_dispute_lost_at: or(m.payment_dispute_lost_at),
    payment_due_date: m.payment_due_date ?? "",
    payment_overdue: m.payment_overdue,
    net_payment_term: m.net_payment_term ?? 0,
    invoice_type: m.invoice_type as ViewOf<typeof invoiceObject>["invoice_type"],
    status: m.status as ViewOf<typeof invoiceObject>["status"],
    payment_status: m.payment_status as ViewOf<typeof invoiceObject>["payment_status"],
    currency: m.currency,
    fees_amount_cents: m.fees_amount_cents,
    coupons_amount_cents: m.coupons_amount_cents,
    credit_notes_amount_cents: m.credit_notes_amount_cents,
    sub_total_excluding_taxes_amount_cents: m.sub_total_excluding_taxes_amount_cents,
    taxes_amount_cents: m.taxes_amount_cents,
    sub_total_including_taxes_amount_cents: m.sub_total_including_taxes_amount_cents,
    prepaid_credit_amount_cents: m.prepaid_credit_amount_cents,
    prepaid_granted_credit_amount_cents: m.prepaid_granted_credit_amount_cents ?? 0,
    prepaid_purchased_credit_amount_cents: m.prepaid_purchased_credit_amount_cents ?? 0,
    progressive_billing_credit_amount_cents: m.progressive_billing_credit_amount_cents,
    total_amount_cents: m.total_amount_cents,
    version_number: m.version_number,
    self_billed: m.self_billed,
    file_url: or(m.file_url),
    web_url: or(m.web_url),
    created_at: m.created_at,
    updated_at: m.updated_at,
    customer: presentInvoiceCustomer(m.customer),
    metadata: m.metadata.map((d) => ({ svc_id: d.svc_id, key: d.key, value: d.value, created_at: d.created_at })),
    applied_taxes: m.applied_taxes.map((t) => ({
      svc_id: t.svc_id,
      svc_tax_id: or(t.svc_tax_id),
      tax_name: t.tax_name,
      tax_code: t.tax_code,
      tax_rate: t.tax_rate,
      tax_description: or(t.tax_description),
      amount_cents: t.amount_cents,
      amount_currency: t.amount_currency,
      created_at: t.created_at,
      svc_invoice_id: t.svc_invoice_id,
      fees_amount_cents: t.fees_amount_cents,
    })),
    billing_periods: m.billing_periods.map((p) => ({
      svc_subscription_id: p.svc_subscription_id,
      external_subscription_id: p.external_subscription_id,
      svc_plan_id: p.svc_plan_id,
      subscription_from_datetime: p.subscription_from_datetime,
      subscription_to_datetime: p.subscription_to_datetime,
      charges_from_datetime: p.charges_from_datetime,
      charges_to_datetime: p.charges_to_datetime,
      invoicing_reason: p.invoicing_reason as ViewOf<
        typeof invoiceObject
      >["billing_periods"][number]["invoicing_reason"],
    })),
    credits: m.credits.map((cr) => ({
      svc_id: cr.svc_id,
      amount_cents: cr.amount_cents,
      amount_currency: cr.amount_currency,
      before_taxes: cr.before_taxes,
      item: {
        svc_item_id: cr.item?.svc_item_id ?? "",
        type: cr.item?.type ?? "",
        code: cr.item?.code ?? "",
        name: cr.item?.name ?? "",
      },
      invoice: {
        svc_id: cr.invoice?.svc_id ?? m.svc_id,
        payment_status: cr.invoice?.payment_status ?? m.payment_status,
      },
    })),
    fees: m.fees.map(presentFee),
    taxes_rate: m.taxes_rate,
    expected_finalization_date: or(m.expected_finalization_date),
    total_paid_amount_cents: m.total_paid_amount_cents,
    total_due_amount_cents: m.total_due_amount_cents,
    total_overpaid_amount_cents: m.total_overpaid_amount_cents,
    applied_invoice_custom_sections: m.applied_invoice_custom_sections.map((s) => ({
      svc_id: s.svc_id,
      svc_invoice_id: s.svc_invoice_id,
      code: s.code,
      details: s.details,
      display_name: s.display_name,
      created_at: s.created_at,
    })),
    applied_usage_thresholds: m.applied_usage_thresholds.map((a) => ({
      lifetime_usage_amount_cents: a.lifetime_usage_amount_cents,
      created_at: a.created_at,
      usage_threshold: {
        svc_id: a.usage_threshold?.svc_id ?? "",
        threshold_display_name: or(a.usage_threshold?.threshold_display_name),
        amount_cents: a.usage_threshold?.amount_cents ?? 0,
        recurring: a.usage_threshold?.recurring ?? false,
        created_at: a.usage_threshold?.created_at ?? "",
        updated_at: a.usage_threshold?.updated_at ?? "",
      },
    })),
    subscriptions: m.subscriptions.map((s) => presentSubscription(s, { withPlan: false })),
    error_details: [],
  } satisfies ViewOf<typeof invoiceObject>;
}
