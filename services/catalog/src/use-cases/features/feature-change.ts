import { randomUUID } from "node:crypto";
import type { Feature } from "../../domain/feature";
import { changedFeature, featureViolations, type FeatureChange } from "../../domain/feature-rules";
import { refuseIfInvalid } from "../catalog-record-writes";

/** A feature with a change applied (new privileges get ids), or 422 with every problem at once. Nothing is stored. */
export function checkedFeature(current: Feature, change: FeatureChange, now: Date): Feature {
  const next = changedFeature(current, change, randomUUID, now);
  refuseIfInvalid(featureViolations(next, change.privileges));
  return next;
}
