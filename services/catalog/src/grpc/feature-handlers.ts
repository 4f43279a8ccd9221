import type { RpcHandler } from "@billing/grpc";
import { pageMeta } from "@billing/mongo";
import type { Feature } from "../domain/feature";
import type { FeatureChange, PrivilegeInput } from "../domain/feature-rules";
import { featureView } from "../domain/feature-view";
import type { CatalogDeps } from "../use-cases/deps";
import { createFeature } from "../use-cases/features/create-feature";
import { deleteFeature } from "../use-cases/features/delete-feature";
import { deleteFeaturePrivilege } from "../use-cases/features/delete-feature-privilege";
import { getFeature } from "../use-cases/features/get-feature";
import { listFeatures } from "../use-cases/features/list-features";
import { updateFeature } from "../use-cases/features/update-feature";
import { json } from "./plan-handlers";
import { pageOf, patchOf, type PageMessage } from "./messages";

type Key = { organization_id: string; code: string };
type Message = Record<string, any>;

function privilegeOf(m: Message): PrivilegeInput {
  const input: PrivilegeInput = { code: m.code, ...patchOf(m, ["name", "value_type"]) };
  if ((m.null_fields ?? []).includes("config")) input.config = null;
  else if (m.config_json) input.config = json(m.config_json);
  return input;
}

/** The proto FeatureInput → the use cases' FeatureChange. */
function featureChangeOf(m: Message | null): FeatureChange {
  return { ...patchOf(m, ["code", "name", "description"]), privileges: (m?.privileges ?? []).map(privilegeOf) } as FeatureChange;
}

/** A feature → the proto Feature (a select privilege's options as a list). */
export function featureMessage(f: Feature) {
  const view = featureView(f);
  return {
    ...view,
    privileges: view.privileges.map((p) => ({ ...p, select_options: (p.config.select_options as string[] | undefined) ?? [] })),
  };
}

/** billing.catalog.v1.FeatureService: proto in, use case, proto out. */
export function featureHandlers(deps: CatalogDeps): Record<string, RpcHandler> {
  return {
    CreateFeature: async (req: { organization_id: string; feature: Message | null }) => ({
      feature: featureMessage(await createFeature(deps, req.organization_id, featureChangeOf(req.feature))),
    }),
    GetFeature: async (req: Key) => ({ feature: featureMessage(await getFeature(deps, req.organization_id, req.code)) }),
    UpdateFeature: async (req: Key & { feature: Message | null }) => ({
      feature: featureMessage(await updateFeature(deps, req.organization_id, req.code, featureChangeOf(req.feature))),
    }),
    DeleteFeature: async (req: Key) => ({ feature: featureMessage(await deleteFeature(deps, req.organization_id, req.code)) }),
    ListFeatures: async (req: { organization_id: string; search_term?: string } & PageMessage) => {
      const page = pageOf(req);
      const { items, total } = await listFeatures(deps, req.organization_id, page, req.search_term || undefined);
      return { features: items.map(featureMessage), meta: pageMeta(total, page) };
    },
    DeleteFeaturePrivilege: async (req: Key & { privilege_code: string }) => ({
      feature: featureMessage(await deleteFeaturePrivilege(deps, req.organization_id, req.code, req.privilege_code)),
    }),
  };
}
