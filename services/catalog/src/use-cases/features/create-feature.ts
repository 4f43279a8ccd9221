import { randomUUID } from "node:crypto";
import type { Feature } from "../../domain/feature";
import type { FeatureChange } from "../../domain/feature-rules";
import type { CatalogDeps } from "../deps";
import { insertRecord } from "../catalog-record-writes";
import { checkedFeature } from "./feature-change";

/** POST /features: a code unique among the organization's live features, privileges optional. */
export async function createFeature(
  deps: CatalogDeps,
  organizationId: string,
  change: FeatureChange,
): Promise<Feature> {
  const now = deps.clock.now();
  const blank: Feature = {
    id: randomUUID(),
    organization_id: organizationId,
    code: "",
    name: null,
    description: null,
    privileges: [],
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  const feature = checkedFeature(blank, { ...change, code: change.code ?? "" }, now);
  await insertRecord(deps.features, feature);
  return feature;
}
