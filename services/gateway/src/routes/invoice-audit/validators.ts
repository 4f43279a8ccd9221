import { z } from "zod";

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "invalid_date");

/** POST /customers/{id}/simulate_plan: the plan to price the past on, and which invoices' periods (issuing dates, inclusive). */
export const simulatePlanInput = z.object({
  plan_code: z.string().min(1, "value_is_mandatory"),
  from: date.optional().describe("first issuing date (inclusive) of the invoices simulated"),
  to: date.optional().describe("last issuing date (inclusive)"),
});
