import { withNullFields } from "../../http/null-fields";
import type { InvoiceCustomSectionInput } from "./validators";

export const toInvoiceCustomSectionInputMessage = (input: InvoiceCustomSectionInput) => withNullFields(input);
