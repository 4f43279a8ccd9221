import { frozenTime } from "@billing/clock";
import { AppError } from "@billing/errors";
import { creditInvoiceIdOf, newCreditInvoice, type CreditPurchase } from "../../domain/credit-invoice";
import type { Invoice, SectionChoiceRecord } from "../../domain/invoice";
import { invoicingTerms } from "../../domain/invoicing-terms";
import { storedEvents } from "../../events/invoice-events";
import type { FinalizeDeps, InvoiceDeps } from "./deps";
import { finalizeOpenInvoice } from "./finalize-open-invoice";

/**
 * A wallet's paid top-up invoiced (the wallet service asks, once per transaction): the credit
 * invoice is stored under an id derived from the transaction, then finalized at once like any
 * invoice (numbered, its events out). A retry finds it and answers it as it is (finishing its
 * finalization if a crash stopped it). Its payment settles the top-up (the wallet service follows
 * the invoice's payment_status events).
 */
export async function createCreditInvoice(
  deps: FinalizeDeps & Pick<InvoiceDeps, "caughtUp">,
  organizationId: string,
  customerId: string,
  purchase: CreditPurchase,
  sectionResource: SectionChoiceRecord | null = null,
): Promise<Invoice> {
  const id = creditInvoiceIdOf(organizationId, purchase.wallet_transaction_id);
  if (!(await deps.invoices.find(organizationId, id, ["generating", "draft", "finalized", "closed"]))) {
    let customer = await deps.copies.customer(customerId);
    if (!customer) {
      // a customer created a moment ago: its copy is on its way (the customer service's event)
      await deps.caughtUp();
      customer = await deps.copies.customer(customerId);
    }
    if (!customer || customer.organization_id !== organizationId) {
      // the customer's copy arrives by event shortly after the customer is created
      throw new AppError(
        "unavailable",
        undefined,
        undefined,
        `customer ${customerId} is not known to invoicing yet; retry`,
      );
    }
    const entity = customer.customer.billing_entity_code
      ? await deps.billingEntities.get(organizationId, customer.customer.billing_entity_code)
      : null;
    const now = deps.clock.now();
    const invoice = newCreditInvoice({
      organizationId,
      customer: { id: customerId, customer: customer.customer },
      entity,
      terms: invoicingTerms(customer.customer, entity),
      purchase,
      sandbox: frozenTime() !== undefined,
      now,
    });
    // its sections: those of the transaction or its wallet (the wallet service says which), else the customer's
    await deps.invoices.insert({ ...invoice, section_resource: sectionResource }, storedEvents(invoice, now));
  }
  const finalized = await finalizeOpenInvoice(deps, id, { refresh: false });
  if (!finalized) throw AppError.internal(`credit invoice ${id} vanished`);
  return finalized;
}
