import { presence } from "../../http/presenting";
import type { FeatureInput } from "./validators";

type PrivilegeInput = NonNullable<FeatureInput["privileges"]>[number];

/** The proto PrivilegeInput: config as JSON text, config sent as null listed among null_fields. */
function toPrivilegeInputMessage({ config, ...rest }: PrivilegeInput) {
  const message = presence(rest);
  if (config === null) message.null_fields.push("config");
  return { ...message, config_json: config ? JSON.stringify(config) : undefined };
}

/** The proto FeatureInput. */
export function toFeatureInputMessage(input: FeatureInput) {
  return { ...presence(input, ["privileges"]), privileges: (input.privileges ?? []).map(toPrivilegeInputMessage) };
}
