import { z } from "zod";
import { calendarDate } from "../../http/fields";

/** POST /customers/{id}/simulate_plan: the plan to price the past on, and which invoices' periods (issuing dates, inclusive). */
export const simulatePlanInput = z.object({
  plan_code: z.string().min(1, "value_is_mandatory"),
  from: calendarDate.optional().describe("first issuing date (inclusive) of the invoices simulated"),
  to: calendarDate.optional().describe("last issuing date (inclusive)"),
});
