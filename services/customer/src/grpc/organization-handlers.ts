import type { CustomerRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { authenticateApiKey } from "../use-cases/organizations/authenticate-api-key";
import type { CustomerDeps } from "../use-cases/deps";

/** CustomerService's organization RPCs. */
export function organizationHandlers(deps: CustomerDeps): Pick<Handlers<CustomerRpc>, "AuthenticateApiKey"> {
  return {
    AuthenticateApiKey: async (req) => {
      const org = await authenticateApiKey(deps, req.api_key);
      return { organization_id: org.id, organization_name: org.name };
    },
  };
}
