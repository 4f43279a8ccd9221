import { z } from "zod";
import { oneOf, topLevelKey } from "../../http/fields";
import type { ErrorKeyOf } from "../../http/validation";

const code = z.string().trim().min(1, "value_is_mandatory").max(255);

/**
 * A privilege's config as Lago sends it: {} for every type but select, whose `select_options` are
 * strings (anything else is invalid_format; the catalog checks the options against the type).
 */
const privilegeConfig = z.strictObject(
  { select_options: z.array(z.string({ error: "invalid_format" }), { error: "invalid_format" }).optional() },
  { error: "invalid_format" },
);

/** A privilege as Lago's FeatureBaseInput sends it; its config is checked against its type by the catalog. */
const privilegeSchema = z.object({
  code,
  name: z.string().max(255).nullish(),
  value_type: oneOf(["integer", "string", "boolean", "select"]).optional(),
  config: privilegeConfig.nullish(),
});

/** The `feature` object of PUT /features/{code}: the code cannot change. */
export const featureUpdateSchema = z.object({
  name: z.string().max(255).nullish(),
  description: z.string().max(600).nullish(),
  privileges: z.array(privilegeSchema).max(100).nullish(),
});

/** The `feature` object of POST /features (Lago's FeatureCreateInput): code required. */
export const featureCreateSchema = featureUpdateSchema.extend({ code });

export type FeatureInput = z.infer<typeof featureUpdateSchema> & { code?: string };

/** A privilege's errors are named as Lago names them: `privilege.code`, `privilege.value_type`. */
export const featureErrorKey: ErrorKeyOf = (path) =>
  path[0] === "privileges" && path.length > 2 ? `privilege.${String(path[2])}` : topLevelKey(path);
