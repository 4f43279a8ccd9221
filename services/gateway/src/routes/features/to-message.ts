import { withNullFields } from "../../http/null-fields";
import type { FeatureInput } from "./validators";

type PrivilegeInput = NonNullable<FeatureInput["privileges"]>[number];

/** The proto PrivilegeInput: config as JSON text, config sent as null listed among null_fields. */
function toPrivilegeInputMessage({ config, ...rest }: PrivilegeInput) {
  const message = withNullFields(rest);
  if (config === null) message.null_fields.push("config");
  return { ...message, config_json: config ? JSON.stringify(config) : undefined };
}

/** The proto FeatureInput. */
export function toFeatureInputMessage(input: FeatureInput) {
  return { ...withNullFields(input, ["privileges"]), privileges: (input.privileges ?? []).map(toPrivilegeInputMessage) };
}
