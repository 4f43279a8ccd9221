import type { Feature } from "../../domain/feature";
import type { FeatureChange } from "../../domain/feature-rules";
import type { CatalogDeps } from "../deps";
import { changeRecord } from "../catalog-record-writes";
import { checkedFeature } from "./feature-change";

/**
 * PUT /features/{code}: name and description when sent; privileges sent are added, or renamed and given more
 * select options when they exist. The code, a privilege's code and value type never change.
 */
export async function updateFeature(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
  change: FeatureChange,
): Promise<Feature> {
  const { code: _ignored, ...allowed } = change;
  const { next } = await changeRecord(
    deps.features,
    deps.clock,
    { organizationId, code, resource: "feature" },
    (current, now) => checkedFeature(current, allowed, now),
  );
  return next;
}
