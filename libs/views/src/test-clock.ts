import type { CustomerMessages } from "@billing/contracts";
import type { testClockObject, ViewOf } from "./schemas";

/** `{"test_clock": {"frozen_time": "…", "status": "ready" | "advancing"}}`. */
export const presentTestClock = (c: CustomerMessages.TestClock__Output) =>
  ({ frozen_time: c.frozen_time, status: c.status }) satisfies ViewOf<typeof testClockObject>;
