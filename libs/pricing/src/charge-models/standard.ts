import type { Decimal } from "../decimal";
import { readDecimal, unitAmountBase } from "./shared";
import type { ChargeModel } from "./types";

/** standard: units × amount. */
export const standardModel: ChargeModel<{ amount: Decimal }> = {
  compile: (properties) => ({ amount: readDecimal(properties, "amount") }),
  apply({ amount }, input) {
    const total = input.units.times(amount);
    return { amount: total, unitAmountBase: unitAmountBase(input), amountDetails: {} };
  },
};
