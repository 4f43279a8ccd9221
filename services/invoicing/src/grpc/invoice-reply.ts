import type { Clock } from "@billing/clock";
import type { Invoice } from "../domain/invoice";
import type { CopyRepository } from "../persistence/copy-repository";
import { invoiceSubscriptions } from "../use-cases/invoices/invoice-subscriptions";
import { invoiceMessage } from "./invoice-messages";

type ReplyDeps = { copies: CopyRepository; clock: Clock; fileUrl?: (invoice: Invoice) => string | null };

/**
 * Invoices as every RPC answers them: the typed messages, with the subscriptions they bill (one read
 * for them all) and their file_url when documents are configured (the gateway presents each as
 * Lago's InvoiceObject). Overdue is told at the organization's time.
 */
export async function invoiceMessages(deps: ReplyDeps, invoices: readonly Invoice[]) {
  const now = deps.clock.now();
  const subscriptions = await invoiceSubscriptions(deps, invoices);
  return invoices.map((invoice) => {
    const message = invoiceMessage(invoice, now, subscriptions);
    if (deps.fileUrl) message.file_url = deps.fileUrl(invoice);
    return message;
  });
}

/** `{invoice}`: one invoice as every RPC answers it (invoiceMessages). */
export const invoiceReply = async (deps: ReplyDeps, invoice: Invoice) => ({
  invoice: (await invoiceMessages(deps, [invoice]))[0]!,
});
