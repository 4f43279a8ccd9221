import { Subjects, type Envelope } from "@billing/bus";
import { domainEvent } from "@billing/contracts";
import type { InvoiceView } from "../domain/invoice";

const I = Subjects.invoicing;

/** The events of a new invoice (created, then drafted or finalized) or of a draft's finalization. */
export function invoiceEvents(view: InvoiceView, organizationId: string, now: Date, created: boolean): Envelope[] {
  const make = (type: (typeof I)[keyof typeof I]) =>
    domainEvent(type, { organizationId, data: { invoice: view as never }, occurredAt: now });
  const events: Envelope[] = created ? [make(I.invoiceCreated)] : [];
  if (view.status === "draft") events.push(make(I.invoiceDrafted));
  else events.push(make(I.invoiceFinalized));
  return events;
}
