import { withNullFields } from "../../http/null-fields";
import type { FeatureInput } from "./validators";

type PrivilegeInput = NonNullable<FeatureInput["privileges"]>[number];

/** The proto PrivilegeInput: config sent as null listed among null_fields, select_options_set when its options were sent. */
function toPrivilegeInputMessage({ config, ...rest }: PrivilegeInput) {
  const message = withNullFields(rest);
  if (config === null) message.null_fields.push("config");
  return {
    ...message,
    config: config
      ? { select_options: config.select_options ?? [], select_options_set: config.select_options !== undefined }
      : undefined,
  };
}

/** The proto FeatureInput. */
export function toFeatureInputMessage(input: FeatureInput) {
  return {
    ...withNullFields(input, ["privileges"]),
    privileges: (input.privileges ?? []).map(toPrivilegeInputMessage),
  };
}
