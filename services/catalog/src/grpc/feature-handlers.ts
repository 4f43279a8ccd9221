import type { CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { CatalogDeps } from "../use-cases/deps";
import { createFeature } from "../use-cases/features/create-feature";
import { deleteFeature } from "../use-cases/features/delete-feature";
import { deleteFeaturePrivilege } from "../use-cases/features/delete-feature-privilege";
import { getFeature } from "../use-cases/features/get-feature";
import { listFeatures } from "../use-cases/features/list-features";
import { updateFeature } from "../use-cases/features/update-feature";
import { featureChangeOf, featureMessage } from "./feature-messages";

/** billing.catalog.v1.FeatureService: proto in, use case, proto out. */
export function featureHandlers(deps: CatalogDeps): Handlers<CatalogRpc["features"]> {
  return {
    CreateFeature: async (req) => ({
      feature: featureMessage(await createFeature(deps, req.organization_id, featureChangeOf(req.feature))),
    }),
    GetFeature: async (req) => ({ feature: featureMessage(await getFeature(deps, req.organization_id, req.code)) }),
    UpdateFeature: async (req) => ({
      feature: featureMessage(await updateFeature(deps, req.organization_id, req.code, featureChangeOf(req.feature))),
    }),
    DeleteFeature: async (req) => ({
      feature: featureMessage(await deleteFeature(deps, req.organization_id, req.code)),
    }),
    ListFeatures: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listFeatures(deps, req.organization_id, page, req.search_term || undefined);
      return { features: items.map(featureMessage), meta: pageMeta(total, page) };
    },
    DeleteFeaturePrivilege: async (req) => ({
      feature: featureMessage(await deleteFeaturePrivilege(deps, req.organization_id, req.code, req.privilege_code)),
    }),
  };
}
