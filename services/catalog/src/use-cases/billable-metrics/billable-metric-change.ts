import {
  BILLABLE_METRIC_PATCHABLE,
  billableMetricViolations,
  normalizeBillableMetric,
} from "../../domain/billable-metric-rules";
import { applyPatch, type Patch } from "../../domain/patch";
import type { BillableMetric } from "../../domain/types";
import { refuseIfInvalid } from "../catalog-record-writes";

/** A metric with the fields sent applied, normalized and validated, or 422 with every problem at once. Nothing is stored. */
export function changedBillableMetric(base: BillableMetric, patch: Patch<BillableMetric>): BillableMetric {
  const next = normalizeBillableMetric(applyPatch(base, patch, BILLABLE_METRIC_PATCHABLE));
  refuseIfInvalid(billableMetricViolations(next));
  return next;
}
