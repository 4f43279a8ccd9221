import { randomUUID } from "node:crypto";
import type { Feature } from "../../domain/feature";
import { changedFeature, featureViolations, type FeatureChange } from "../../domain/feature-rules";
import type { CatalogDeps } from "../deps";
import { insertRecord, refuseIfInvalid } from "../catalog-record-writes";

/** Applies a change to a feature or throws 422 with every problem at once. */
export function checkedFeature(current: Feature, change: FeatureChange, now: Date): Feature {
  const next = changedFeature(current, change, randomUUID, now);
  refuseIfInvalid(featureViolations(next, change.privileges));
  return next;
}

/** POST /features: a code unique among the organization's live features, privileges optional. */
export async function createFeature(deps: CatalogDeps, organizationId: string, change: FeatureChange): Promise<Feature> {
  const now = deps.clock.now();
  const blank: Feature = {
    id: randomUUID(), organization_id: organizationId, code: "", name: null, description: null, privileges: [],
    created_at: now, updated_at: now, deleted_at: null,
  };
  const feature = checkedFeature(blank, { ...change, code: change.code ?? "" }, now);
  await insertRecord(deps.features, feature);
  return feature;
}
