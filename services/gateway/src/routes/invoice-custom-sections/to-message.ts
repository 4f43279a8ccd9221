import { presence } from "../../http/presenting";
import type { InvoiceCustomSectionInput } from "./validators";

export const toInvoiceCustomSectionInputMessage = (input: InvoiceCustomSectionInput) => presence(input);
