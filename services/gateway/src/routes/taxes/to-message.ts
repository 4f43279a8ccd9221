import { presence } from "../../http/presenting";
import type { TaxInput } from "./validators";

export const toTaxInputMessage = (input: TaxInput) => presence(input);
