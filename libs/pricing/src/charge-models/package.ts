import { type Decimal, ZERO, decimalString } from "../decimal";
import { fdiv } from "../lago-float";
import { readDecimal } from "./shared";
import type { ChargeModel } from "./types";

interface PackageProperties {
  amount: Decimal;
  packageSize: number;
  freeUnits: Decimal;
}

/** package: a started package of `package_size` units is charged `amount` in full, after free units. */
export const packageModel: ChargeModel<PackageProperties> = {
  compile: (properties) => ({
    amount: readDecimal(properties, "amount"),
    packageSize: Number(properties["package_size"] ?? 1),
    freeUnits: readDecimal(properties, "free_units"),
  }),
  apply({ amount, packageSize, freeUnits }, input) {
    const paidUnits = input.units.minus(freeUnits);
    // Lago quirk: the package count is a float division (`fdiv`) rounded up.
    const packages = paidUnits.isNegative() ? 0 : Math.ceil(fdiv(paidUnits, packageSize));
    const total = amount.times(packages);
    const unitAmountBase = paidUnits.lte(0) ? ZERO : paidUnits;
    if (input.units.isZero()) {
      const amountDetails = {
        free_units: "0.0",
        paid_units: "0.0",
        per_package_size: 0,
        per_package_unit_amount: "0.0",
      };
      return { amount: total, unitAmountBase, amountDetails };
    }
    const amountDetails = {
      free_units: decimalString(freeUnits),
      paid_units: paidUnits.isNegative() ? "0.0" : decimalString(paidUnits),
      per_package_size: packageSize,
      per_package_unit_amount: decimalString(amount),
    };
    return { amount: total, unitAmountBase, amountDetails };
  },
};
