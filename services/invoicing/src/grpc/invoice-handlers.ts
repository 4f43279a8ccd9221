import type { InvoicingRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { Invoice } from "../domain/invoice";
import type { InvoicingDeps } from "../use-cases/deps";
import { applyPayment, type PaymentOutcome } from "../use-cases/invoices/apply-payment";
import { createCreditInvoice } from "../use-cases/invoices/create-credit-invoice";
import { finalizeInvoice } from "../use-cases/invoices/finalize-invoice";
import { getInvoice } from "../use-cases/invoices/get-invoice";
import { listInvoices } from "../use-cases/invoices/list-invoices";
import { refreshInvoice } from "../use-cases/invoices/refresh-invoice";
import { updateInvoice } from "../use-cases/invoices/update-invoice";
import { getOngoingUsage } from "../use-cases/usage/get-ongoing-usage";
import { invoiceFilterOf, invoiceUpdateOf } from "./invoice-messages";
import { invoiceMessages, invoiceReply } from "./invoice-reply";

type InvoiceRpcs = "ListInvoices" | "GetInvoice" | "FinalizeInvoice" | "RefreshInvoice" | "UpdateInvoice" | "CreateCreditInvoice" | "OngoingUsage" | "ApplyPayment";

/** billing.invoicing.v1.InvoiceService, its invoices: proto in, use case, proto out (always within the caller's organization). */
export function invoiceHandlers(deps: InvoicingDeps): Pick<Handlers<InvoicingRpc>, InvoiceRpcs> {
  const reply = (invoice: Invoice) => invoiceReply(deps, invoice);
  return {
    ListInvoices: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listInvoices(deps, req.organization_id, invoiceFilterOf(req), page);
      return { invoices: await invoiceMessages(deps, items), meta: pageMeta(total, page) };
    },
    GetInvoice: async (req) => reply(await getInvoice(deps, req.organization_id, req.id)),
    FinalizeInvoice: async (req) => reply(await finalizeInvoice(deps, req.organization_id, req.id)),
    RefreshInvoice: async (req) => reply(await refreshInvoice(deps, req.organization_id, req.id)),
    UpdateInvoice: async (req) => reply(await updateInvoice(deps, req.organization_id, req.id, invoiceUpdateOf(req))),
    CreateCreditInvoice: async (req) => reply(await createCreditInvoice(deps, req.organization_id, req.customer_id, {
      wallet_transaction_id: req.wallet_transaction_id, wallet_id: req.wallet_id, name: req.name ?? null, credits: req.credits,
      rate_amount: req.rate_amount, amount_cents: Number(req.amount_cents), currency: req.currency,
    }, req.section_resource ? { skip: req.section_resource.skip, section_ids: req.section_resource.section_ids } : null)),
    ApplyPayment: async (req) => reply(await applyPayment(deps, req.organization_id, {
      invoice_id: req.invoice_id, payment_id: req.payment_id, amount_cents: Number(req.amount_cents), outcome: req.outcome as PaymentOutcome, allow_overpayment: req.allow_overpayment,
    })),
    OngoingUsage: async (req) => ({ customers: await getOngoingUsage(deps, req.organization_id, req.external_subscription_ids, req.customer_ids, req.only_customer_ids) }),
  };
}
