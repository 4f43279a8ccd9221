import { dynamicModel } from "./dynamic";
import { graduatedModel } from "./graduated";
import { graduatedPercentageModel } from "./graduated-percentage";
import { packageModel } from "./package";
import { percentageModel } from "./percentage";
import { proratedGraduatedModel } from "./prorated-graduated";
import { standardModel } from "./standard";
import type { ChargeModel, ChargeModelInput, ChargeModelName, ChargeModelResult } from "./types";
import { volumeModel } from "./volume";

/** The strategy table: one entry per charge model. */
export const chargeModels: Readonly<Record<ChargeModelName, ChargeModel<unknown>>> = {
  standard: standardModel as ChargeModel<unknown>,
  package: packageModel as ChargeModel<unknown>,
  graduated: graduatedModel as ChargeModel<unknown>,
  graduated_percentage: graduatedPercentageModel as ChargeModel<unknown>,
  volume: volumeModel as ChargeModel<unknown>,
  percentage: percentageModel as ChargeModel<unknown>,
  dynamic: dynamicModel as ChargeModel<unknown>,
};

export const CHARGE_MODEL_NAMES = Object.keys(chargeModels) as ChargeModelName[];

/** Charge properties parsed once for a model (ranges and prices as Decimals). */
export interface CompiledCharge {
  readonly chargeModel: ChargeModelName;
  readonly prorated: boolean;
  readonly model: ChargeModel<unknown>;
  readonly compiled: unknown;
}

export function isChargeModelName(name: string): name is ChargeModelName {
  return Object.hasOwn(chargeModels, name);
}

/** Parses a charge's (or a filter's) properties once; reuse the result for many fee computations. */
export function compileCharge(
  chargeModel: ChargeModelName,
  properties: Record<string, unknown>,
  options: { prorated?: boolean } = {},
): CompiledCharge {
  if (!isChargeModelName(chargeModel)) throw new RangeError(`unknown charge model: ${String(chargeModel)}`);
  const prorated = options.prorated === true;
  const model =
    prorated && chargeModel === "graduated"
      ? (proratedGraduatedModel as ChargeModel<unknown>)
      : chargeModels[chargeModel];
  return { chargeModel, prorated, model, compiled: model.compile(properties ?? {}) };
}

/** Applies a compiled charge model to one aggregation. */
export function applyChargeModel(charge: CompiledCharge, input: ChargeModelInput): ChargeModelResult {
  const withProration = charge.prorated && !input.prorated ? { ...input, prorated: true } : input;
  return charge.model.apply(charge.compiled, withProration);
}
