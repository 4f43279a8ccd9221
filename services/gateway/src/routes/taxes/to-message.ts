import { withNullFields } from "../../http/null-fields";
import type { TaxInput } from "./validators";

export const toTaxInputMessage = (input: TaxInput) => withNullFields(input);
