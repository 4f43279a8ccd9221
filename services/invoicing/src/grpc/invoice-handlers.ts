import { sectionChoiceInputOf, type CreditNoteRpc, type InvoicingRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { Invoice } from "../domain/invoice";
import type { InvoiceDeps } from "../use-cases/invoices/deps";
import { applyPayment, type PaymentOutcome } from "../use-cases/invoices/apply-payment";
import { createCreditInvoice } from "../use-cases/invoices/create-credit-invoice";
import { createOneOffInvoice } from "../use-cases/invoices/create-one-off-invoice";
import { deleteDraftInvoice } from "../use-cases/invoices/delete-draft-invoice";
import { finalizeInvoice } from "../use-cases/invoices/finalize-invoice";
import { getInvoice } from "../use-cases/invoices/get-invoice";
import { listInvoices } from "../use-cases/invoices/list-invoices";
import { refreshInvoice } from "../use-cases/invoices/refresh-invoice";
import { regenerateInvoice } from "../use-cases/invoices/regenerate-invoice";
import { updateInvoice } from "../use-cases/invoices/update-invoice";
import { voidInvoice } from "../use-cases/invoices/void-invoice";
import { getOngoingUsage } from "../use-cases/usage/get-ongoing-usage";
import { invoiceFilterOf, invoiceUpdateOf } from "./invoice-messages";
import { invoiceMessages, invoiceReply } from "./invoice-reply";

type InvoiceRpcs =
  | "ListInvoices"
  | "GetInvoice"
  | "FinalizeInvoice"
  | "RefreshInvoice"
  | "UpdateInvoice"
  | "CreateCreditInvoice"
  | "OngoingUsage"
  | "ApplyPayment";

/** billing.invoicing.v1.InvoiceService, its invoices: proto in, use case, proto out (always within the caller's organization). */
export function invoiceHandlers(deps: InvoiceDeps): Pick<Handlers<InvoicingRpc>, InvoiceRpcs> {
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
    CreateCreditInvoice: async (req) =>
      reply(
        await createCreditInvoice(
          deps,
          req.organization_id,
          req.customer_id,
          {
            wallet_transaction_id: req.wallet_transaction_id,
            wallet_id: req.wallet_id,
            name: req.name ?? null,
            credits: req.credits,
            rate_amount: req.rate_amount,
            amount_cents: Number(req.amount_cents),
            currency: req.currency,
          },
          req.section_resource
            ? { skip: req.section_resource.skip, section_ids: req.section_resource.section_ids }
            : null,
        ),
      ),
    ApplyPayment: async (req) =>
      reply(
        await applyPayment(deps, req.organization_id, {
          invoice_id: req.invoice_id,
          payment_id: req.payment_id,
          amount_cents: Number(req.amount_cents),
          outcome: req.outcome as PaymentOutcome,
          allow_overpayment: req.allow_overpayment,
        }),
      ),
    OngoingUsage: async (req) => ({
      customers: await getOngoingUsage(
        deps,
        req.organization_id,
        req.external_subscription_ids,
        req.customer_ids,
        req.only_customer_ids,
      ),
    }),
  };
}

type InvoiceOperationRpcs = "VoidInvoice" | "RegenerateInvoice" | "DeleteDraftInvoice" | "CreateOneOffInvoice";

/**
 * billing.invoicing.v1.CreditNoteService, its RPCs on invoices: proto in, use case, proto out. They
 * stay in credit_notes.proto (their request messages are there, and credit_notes.proto imports
 * invoicing.proto); their handlers are the invoices'.
 */
export function invoiceOperationHandlers(deps: InvoiceDeps): Pick<Handlers<CreditNoteRpc>, InvoiceOperationRpcs> {
  const reply = (invoice: Invoice) => invoiceReply(deps, invoice);
  return {
    VoidInvoice: async (req) =>
      reply(
        await voidInvoice(deps, req.organization_id, req.id, {
          generate_credit_note: req.generate_credit_note,
          credit_amount: Number(req.credit_amount),
          refund_amount: Number(req.refund_amount),
        }),
      ),
    DeleteDraftInvoice: async (req) => reply(await deleteDraftInvoice(deps, req.organization_id, req.id)),
    CreateOneOffInvoice: async (req) => {
      const invoice = await createOneOffInvoice(deps, req.organization_id, {
        external_customer_id: req.external_customer_id,
        currency: req.currency ?? null,
        billing_entity_code: req.billing_entity_code ?? null,
        fees: req.fees.map((f) => ({
          add_on_code: f.add_on_code,
          units: f.units ?? null,
          unit_amount_cents: f.unit_amount_cents == null ? null : Number(f.unit_amount_cents),
          description: f.description ?? null,
          invoice_display_name: f.invoice_display_name ?? null,
          tax_codes: f.tax_codes.length ? f.tax_codes : null,
          from_datetime: f.from_datetime ?? null,
          to_datetime: f.to_datetime ?? null,
        })),
        invoice_custom_section: sectionChoiceInputOf(req.invoice_custom_section),
      });
      return reply(invoice);
    },
    RegenerateInvoice: async (req) => reply(await regenerateInvoice(deps, req.organization_id, req.id)),
  };
}
