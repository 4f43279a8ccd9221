import { presentInvoice } from "@billing/views";
import { replySender } from "../../http/rpc-route";

/** `{"invoice": …}`: the invoicing service's typed invoice as Lago's InvoiceObject (the invoice, credit note and document routes). */
export const sendInvoice = replySender("invoice", presentInvoice);
