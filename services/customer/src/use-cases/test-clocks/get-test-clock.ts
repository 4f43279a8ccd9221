import { AppError } from "@billing/errors";
import type { TestClock } from "../../domain/types";
import type { CustomerDeps } from "../deps";

/** GET /test_clock: the sandbox organization's clock; an ordinary organization has none (404). */
export async function getTestClock(
  deps: Pick<CustomerDeps, "organizations">,
  organizationId: string,
): Promise<TestClock> {
  const organization = await deps.organizations.findById(organizationId);
  if (!organization?.test_clock) throw AppError.notFound("test_clock");
  return organization.test_clock;
}
