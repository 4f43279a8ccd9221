import type { CustomerMessages } from "@billing/contracts";

/** `{"test_clock": {"frozen_time": "…", "status": "ready" | "advancing"}}`. */
export const presentTestClock = (c: CustomerMessages.TestClock__Output) => ({ frozen_time: c.frozen_time, status: c.status });
