import type { TestClock } from "./types";

/** The API's view of a test clock. */
export function testClockView(clock: TestClock) {
  return { frozen_time: clock.frozen_time.toISOString(), status: clock.status };
}

/** The instant an advance steps to next: the earliest work due in any service, capped at the target. */
export function nextStep(target: Date, dues: ReadonlyArray<Date | null>): Date {
  let next = target.getTime();
  for (const due of dues) if (due && due.getTime() < next) next = due.getTime();
  return new Date(next);
}
