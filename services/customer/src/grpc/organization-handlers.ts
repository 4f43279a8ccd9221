import type { CustomerRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { authenticateApiKey } from "../use-cases/organizations/authenticate-api-key";
import { testClockView } from "../domain/test-clock";
import type { CustomerDeps } from "../use-cases/deps";
import { advanceTestClock } from "../use-cases/test-clocks/advance-test-clock";
import { getTestClock } from "../use-cases/test-clocks/get-test-clock";

/** CustomerService's organization RPCs. */
export function organizationHandlers(
  deps: CustomerDeps,
): Pick<Handlers<CustomerRpc>, "AuthenticateApiKey" | "GetTestClock" | "AdvanceTestClock"> {
  return {
    AuthenticateApiKey: async (req) => {
      const org = await authenticateApiKey(deps, req.api_key);
      const frozen = org.test_clock ? { frozen_time: org.test_clock.frozen_time.toISOString() } : {};
      return { organization_id: org.id, organization_name: org.name, ...frozen };
    },
    GetTestClock: async (req) => ({ test_clock: testClockView(await getTestClock(deps, req.organization_id)) }),
    AdvanceTestClock: async (req) => ({
      test_clock: testClockView(
        await advanceTestClock(deps, req.organization_id, new Date(req.frozen_time || "invalid")),
      ),
    }),
  };
}
