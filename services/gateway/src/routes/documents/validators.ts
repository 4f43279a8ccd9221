import { z } from "zod";

/** The query of a signed document link: its expiry (Unix seconds) and signature. */
export const signedLinkQuery = z.object({
  expires: z
    .string()
    .regex(/^\d{1,12}$/, "value_is_invalid")
    .transform(Number),
  signature: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "value_is_invalid"),
});
