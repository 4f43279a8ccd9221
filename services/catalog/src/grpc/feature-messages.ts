import type { CatalogMessages as M } from "@billing/contracts";
import type { Feature } from "../domain/feature";
import type { FeatureChange, PrivilegeInput } from "../domain/feature-rules";
import { featureView } from "../domain/feature-view";
import { patchOf } from "./patch-messages";

/** Proto ⇄ domain for features. */

function privilegeOf(m: M.PrivilegeInput__Output): PrivilegeInput {
  const input: PrivilegeInput = { code: m.code, ...patchOf(m, ["name", "value_type"]) };
  if ((m.null_fields ?? []).includes("config")) input.config = null;
  else if (m.config) input.config = m.config.select_options_set ? { select_options: m.config.select_options } : {};
  return input;
}

/** The proto FeatureInput → the use cases' FeatureChange. */
export function featureChangeOf(m: M.FeatureInput__Output | null): FeatureChange {
  return {
    ...patchOf(m, ["code", "name", "description"]),
    privileges: (m?.privileges ?? []).map(privilegeOf),
  } as FeatureChange;
}

/** A feature → the proto Feature (a select privilege's options as a list). */
export function featureMessage(f: Feature) {
  const view = featureView(f);
  return {
    ...view,
    privileges: view.privileges.map((p) => ({
      ...p,
      select_options: (p.config.select_options as string[] | undefined) ?? [],
    })),
  };
}
