import type { InvoicingMessages as M } from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { Nullable } from "@billing/grpc";
import type { Invoice } from "../domain/invoice";
import type { FeeFilter } from "../persistence/fee-repository";
import type { FeeRead } from "../use-cases/fees/read-fees";
import { feeMessage } from "./invoice-messages";

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/**
 * Lago's FeeObject, typed (the gateway presents it): a fee of an invoice as its invoice shows it; a
 * pay-in-advance fee with its own payment status, dates and event; a waiting one without invoice.
 */
export function feeReadMessage(read: FeeRead): Nullable<M.Fee> {
  const { record } = read;
  // a waiting fee has no invoice: the message is built from its record alone
  const invoice: Invoice =
    read.invoice ??
    ({
      id: "",
      currency: record!.currency,
      created_at: record!.created_at,
      customer_id: record!.customer_id,
      external_customer_id: record!.external_customer_id,
      payment_status: "pending",
      fees: [read.fee],
    } as unknown as Invoice);
  const message = feeMessage(invoice, read.fee);
  if (!record) return message;
  return {
    ...message,
    // an invoiceable fee names its own invoice from the start (the id derives from the fee): shown
    // before that invoice's document is written too, so a read between the two writes agrees with later ones
    svc_invoice_id: read.invoice ? read.invoice.id : record.invoice_id,
    // an invoiced fee's payment follows its invoice (Lago)
    payment_status: read.invoice ? read.invoice.payment_status : record.payment_status,
    created_at: iso(record.created_at),
    succeeded_at: iso(record.succeeded_at),
    failed_at: iso(record.failed_at),
    refunded_at: iso(record.refunded_at),
    event_transaction_id: record.event_transaction_id,
  };
}

const instantOf = (field: string, value: string | null | undefined, endOfDay: boolean): Date | undefined => {
  if (!value) return undefined;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(`${value}T${endOfDay ? "23:59:59.999" : "00:00:00.000"}Z`)
    : new Date(value);
  if (Number.isNaN(date.getTime())) throw AppError.validation({ [field]: ["invalid_date"] });
  return date;
};

const span = (req: M.ListFeesRequest__Output, name: "created_at" | "succeeded_at" | "failed_at" | "refunded_at") => ({
  from: instantOf(`${name}_from`, req[`${name}_from`], false),
  to: instantOf(`${name}_to`, req[`${name}_to`], true),
});

/** GET /fees filters (Lago's names); a fee_type other than charge lists nothing here (only charge fees are pay-in-advance fees). */
export function feeFilterOf(req: M.ListFeesRequest__Output): FeeFilter & { none?: boolean } {
  return {
    none: Boolean(req.fee_type) && req.fee_type !== "charge",
    externalCustomerId: req.external_customer_id || undefined,
    externalSubscriptionId: req.external_subscription_id || undefined,
    currency: req.currency ? req.currency.toUpperCase() : undefined,
    billableMetricCode: req.billable_metric_code || undefined,
    paymentStatus: req.payment_status || undefined,
    eventTransactionId: req.event_transaction_id || undefined,
    created: span(req, "created_at"),
    succeeded: span(req, "succeeded_at"),
    failed: span(req, "failed_at"),
    refunded: span(req, "refunded_at"),
  };
}
