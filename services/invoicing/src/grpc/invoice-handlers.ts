import type { InvoicingRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { InvoicingDeps } from "../use-cases/deps";
import { finalizeInvoice } from "../use-cases/invoices/finalize-invoice";
import { getInvoice } from "../use-cases/invoices/get-invoice";
import { listInvoices } from "../use-cases/invoices/list-invoices";
import { refreshInvoice } from "../use-cases/invoices/refresh-invoice";
import { getCurrentUsage } from "../use-cases/usage/get-current-usage";
import { invoiceFilterOf, invoiceMessage } from "./invoice-messages";

/** billing.invoicing.v1.InvoiceService: proto in, use case, proto out. */
export function invoiceHandlers(deps: InvoicingDeps): Handlers<InvoicingRpc> {
  return {
    ListInvoices: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listInvoices(deps, req.organization_id, invoiceFilterOf(req), page);
      return { invoices_json: items.map((i) => JSON.stringify(i.view)), meta: pageMeta(total, page) };
    },
    GetInvoice: async (req) => invoiceMessage(await getInvoice(deps, req.organization_id, req.id)),
    FinalizeInvoice: async (req) => invoiceMessage(await finalizeInvoice(deps, req.organization_id, req.id)),
    RefreshInvoice: async (req) => invoiceMessage(await refreshInvoice(deps, req.organization_id, req.id)),
    GetCurrentUsage: async (req) => ({
      usage_json: JSON.stringify(await getCurrentUsage(deps, req.organization_id, req.external_customer_id, req.external_subscription_id)),
    }),
  };
}
