import { Rpc, type InvoicingMessages, type InvoicingRpc } from "@billing/contracts";
import { AppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";

/** What the payment service needs to know of an invoice. */
export interface InvoiceRef {
  id: string;
  number: string;
  status: string;
  payment_status: string;
  currency: string;
  total_amount_cents: number;
  total_due_amount_cents: number;
  customer_id: string;
  external_customer_id: string;
  /** succeeded payments' parts it could not take (each recorded by the write that applied the payment) */
  overpayments: { payment_id: string; amount_cents: number }[];
}

/** An invoice as GET /invoices/{id} shows it: its reference, whether it is overdue (on the organization's clock), and the invoice as invoicing answered it. */
export interface InvoiceDocument {
  invoice: InvoiceRef;
  payment_overdue: boolean;
  message: InvoicingMessages.Invoice__Output;
}

/** The invoicing service as the payment service sees it. */
export interface Invoicing {
  /** The invoice of this organization, or null. */
  find(organizationId: string, invoiceId: string): Promise<InvoiceRef | null>;
  /** The invoice of this organization as the API shows it, or null. */
  document(organizationId: string, invoiceId: string): Promise<InvoiceDocument | null>;
  /** A payment's outcome applied to its invoice (once per payment and outcome, however often asked). */
  applyPayment(
    organizationId: string,
    p: { invoice_id: string; payment_id: string; amount_cents: number; outcome: string; allow_overpayment?: boolean },
  ): Promise<InvoiceRef>;
}

const refOf = (i: InvoicingMessages.Invoice__Output | null): InvoiceRef => {
  if (!i) throw AppError.internal("invoicing answered without the invoice");
  return {
    id: i.svc_id,
    number: i.number,
    status: i.status,
    payment_status: i.payment_status,
    currency: i.currency,
    total_amount_cents: Number(i.total_amount_cents),
    total_due_amount_cents: Number(i.total_due_amount_cents),
    customer_id: i.customer?.svc_id ?? "",
    external_customer_id: i.customer?.external_id ?? "",
    overpayments: i.overpayments.map((o) => ({ payment_id: o.payment_id, amount_cents: Number(o.amount_cents) })),
  };
};

export function grpcInvoicing(address: string, deadlineMs = 10_000): Invoicing & { close(): void } {
  const client = new RpcClient<InvoicingRpc>(Rpc.invoicing, address, deadlineMs);
  return {
    async find(organizationId, invoiceId) {
      try {
        return refOf((await client.call("GetInvoice", { organization_id: organizationId, id: invoiceId })).invoice);
      } catch (err) {
        if (err instanceof AppError && err.kind === "not_found") return null;
        throw err;
      }
    },
    async document(organizationId, invoiceId) {
      try {
        const { invoice } = await client.call("GetInvoice", { organization_id: organizationId, id: invoiceId });
        return { invoice: refOf(invoice), payment_overdue: invoice!.payment_overdue, message: invoice! };
      } catch (err) {
        if (err instanceof AppError && err.kind === "not_found") return null;
        throw err;
      }
    },
    async applyPayment(organizationId, p) {
      return refOf((await client.call("ApplyPayment", { organization_id: organizationId, ...p })).invoice);
    },
    close: () => client.close(),
  };
}
