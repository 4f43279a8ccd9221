import { derivedUuid } from "@billing/codes";
import type { CustomerViewData } from "@billing/contracts";
import type { FeeDraft, Invoice } from "./invoice";
import { immediateInvoice } from "./compose-invoice";
import { invoiceDates, type BillingEntityTerms, type InvoicingTerms } from "./invoicing-terms";

/** A wallet's paid top-up, as the wallet service asks it to be invoiced. */
export interface CreditPurchase {
  wallet_transaction_id: string;
  wallet_id: string;
  /** the transaction's name, shown as the fee's (Lago: "credit" when none) */
  name: string | null;
  credits: string;
  rate_amount: string;
  amount_cents: number;
  currency: string;
}

/** The credit invoice of a wallet transaction: derived from it, so a retry writes the same invoice once. */
export const creditInvoiceIdOf = (organizationId: string, walletTransactionId: string) =>
  derivedUuid(`credit invoice|${organizationId}|${walletTransactionId}`);

/**
 * A wallet top-up's invoice (Lago's `credit` invoice): one fee of the credits bought at the
 * wallet's rate, never taxed, no coupons or prepaid credits; finalized at once. Pure.
 */
export function newCreditInvoice(input: {
  organizationId: string;
  customer: { id: string; customer: CustomerViewData };
  entity: BillingEntityTerms | null;
  terms: InvoicingTerms;
  purchase: CreditPurchase;
  sandbox: boolean;
  now: Date;
}): Invoice {
  const { purchase, customer } = input;
  const id = creditInvoiceIdOf(input.organizationId, purchase.wallet_transaction_id);
  const fee: FeeDraft = {
    id: derivedUuid(`${id}|credit`),
    fee_type: "credit",
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
      code: "credit",
      name: purchase.name ?? "credit",
      description: "credit",
      invoice_display_name: purchase.name ?? "Prepaid credits",
      filter_invoice_display_name: null,
      filters: null,
      item_id: purchase.wallet_transaction_id,
      item_type: "WalletTransaction",
      grouped_by: {},
    },
    units: purchase.credits,
    total_aggregated_units: purchase.credits,
    events_count: null,
    precise_unit_amount: purchase.rate_amount,
    amount_cents: purchase.amount_cents,
    precise_amount_cents: String(purchase.amount_cents),
    pay_in_advance: true,
    invoiceable: true,
    from: null,
    to: null,
    amount_details: {},
    properties: {},
    taxes: [],
    description: null,
  };
  const dates = invoiceDates(input.terms, input.now, [], "credit");
  return immediateInvoice({
    id,
    organizationId: input.organizationId,
    customer,
    entity: input.entity,
    sandbox: input.sandbox,
    invoiceType: "credit",
    walletTransactionId: purchase.wallet_transaction_id,
    billedAt: input.now,
    lines: [],
    currency: purchase.currency,
    fees: [fee],
    dates: {
      issuing_date: dates.issuing_date,
      payment_due_date: dates.payment_due_date,
      net_payment_term: dates.net_payment_term,
    },
    now: input.now,
  });
}
