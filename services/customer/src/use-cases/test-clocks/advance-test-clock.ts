import { AppError } from "@billing/errors";
import type { TestClock } from "../../domain/types";
import type { CustomerDeps } from "../deps";
import { getTestClock } from "./get-test-clock";

/**
 * POST /test_clock/advance: the clock starts advancing towards `to` (one conditional update, so
 * two calls cannot both start) and the answer comes at once, status "advancing"; the driver then
 * moves it through every instant at which work is due (drive-test-clock.ts).
 */
export async function advanceTestClock(deps: CustomerDeps, organizationId: string, to: Date): Promise<TestClock> {
  if (Number.isNaN(to.getTime())) throw AppError.validation({ frozen_time: ["invalid_date"] });
  const started = await deps.organizations.beginAdvance(organizationId, to);
  if (started?.test_clock) {
    deps.testClocks.drive(organizationId);
    return started.test_clock;
  }
  const current = await getTestClock(deps, organizationId); // 404 for an ordinary organization
  if (current.status === "advancing") throw new AppError("failed_precondition", "test_clock_advancing");
  throw AppError.validation({ frozen_time: ["must_be_after_current_frozen_time"] });
}
