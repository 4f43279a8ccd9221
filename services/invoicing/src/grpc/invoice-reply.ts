import type { Clock } from "@billing/clock";
import type { Invoice } from "../domain/invoice";
import type { CopyRepository } from "../persistence/copy-repository";
import { invoiceSubscriptions } from "../use-cases/invoices/invoice-subscriptions";
import { invoiceMessage } from "./invoice-messages";

/**
 * An invoice as every RPC answers it: the typed message, with the subscriptions it bills and its
 * file_url when documents are configured (the gateway presents it as Lago's InvoiceObject). Overdue
 * is told at the organization's time.
 */
export async function invoiceReply(deps: { copies: CopyRepository; clock: Clock; fileUrl?: (invoice: Invoice) => string | null }, invoice: Invoice) {
  const message = invoiceMessage(invoice, deps.clock.now(), await invoiceSubscriptions(deps, [invoice]));
  if (deps.fileUrl) message.file_url = deps.fileUrl(invoice);
  return { invoice: message };
}
