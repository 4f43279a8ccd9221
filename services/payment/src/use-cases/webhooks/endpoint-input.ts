import { AppError } from "@billing/errors";
import { endpointInputErrors, type SignatureAlgo } from "../../domain/webhook-endpoint";

export interface EndpointInput {
  webhook_url: string;
  signature_algo?: string | null;
  name?: string | null;
  /** null: every type */
  event_types: string[] | null;
}

/** The input checked (422 with every problem at once), the algorithm defaulted to hmac. */
export function checkedEndpointInput(input: EndpointInput, allowPrivate: boolean) {
  const signature_algo = input.signature_algo ?? "hmac";
  const errors = endpointInputErrors(
    { webhook_url: input.webhook_url ?? "", signature_algo, event_types: input.event_types },
    allowPrivate,
  );
  if (errors) throw AppError.validation(errors);
  return {
    webhook_url: input.webhook_url,
    signature_algo: signature_algo as SignatureAlgo,
    name: input.name ?? null,
    event_types: input.event_types,
  };
}
