import { ZERO } from "../decimal";
import { unitAmountBase } from "./shared";
import type { ChargeModel } from "./types";

/** dynamic: the events carry their own price; amount = Σ precise_total_amount_cents / subunit. */
export const dynamicModel: ChargeModel<null> = {
  compile: () => null,
  apply(_compiled, input) {
    const base = unitAmountBase(input);
    const amount = base.isZero() ? ZERO : (input.preciseTotalAmountCents ?? ZERO).div(input.subunit);
    return { amount, unitAmountBase: base, amountDetails: {} };
  },
};
