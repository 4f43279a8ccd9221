import { z } from "zod";

/** Building blocks of the event schemas: the views' JSON as the producers write it. */
export const text = z.string();
export const instant = z.string().datetime({ offset: true });
export const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();
/** Absent (an older producer) or null both read as null. */
export const maybe = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? null);
export const properties = z.record(z.string(), z.unknown());

/** A tax as the catalog describes it (TaxObject); `rate` is a decimal string. */
export const taxView = z.object({
  svc_id: text,
  name: text,
  code: text,
  description: maybe(text),
  rate: z.union([text, z.number()]).transform(String),
  applied_to_organization: z.boolean().optional(),
  created_at: instant.optional(),
});
