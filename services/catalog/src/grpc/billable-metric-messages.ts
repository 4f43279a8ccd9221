import type { CatalogMessages as M } from "@billing/contracts";
import type { Patch } from "../domain/patch";
import type { BillableMetric } from "../domain/types";
import { patchOf } from "./patch-messages";

/** Proto ⇄ domain for billable metrics (a metric's proto message is its view, `billableMetricView`). */

/** The proto BillableMetricInput → the fields sent, as a patch (filters only when sent). */
export function billableMetricPatchOf(m: M.BillableMetricInput__Output | null): Patch<BillableMetric> {
  const patch: Patch<BillableMetric> = patchOf(m, [
    "name",
    "code",
    "description",
    "aggregation_type",
    "field_name",
    "recurring",
    "rounding_function",
    "rounding_precision",
    "weighted_interval",
    "expression",
  ]);
  if (m?.filters_set) patch.filters = (m.filters ?? []).map((f) => ({ key: f.key, values: f.values ?? [] }));
  return patch;
}
