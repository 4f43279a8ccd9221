import { z } from "zod";

/** The `test_clock` object of POST /test_clock/advance: the time to move the clock to (ISO 8601, with its offset). */
export const advanceSchema = z.object({ frozen_time: z.string().datetime({ offset: true, message: "invalid_date" }) });
