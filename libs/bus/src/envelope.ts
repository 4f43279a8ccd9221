import { randomUUID } from "node:crypto";
import { frozenTime } from "@billing/clock";
import { z } from "zod";

/** The one envelope of every domain event, validated on both ends. */
export const envelopeSchema = z.object({
  id: z.string().uuid(),
  type: z.string().regex(/^billing(\.[a-z0-9_]+){3}$/),
  version: z.number().int().positive(),
  organization_id: z.string().min(1),
  occurred_at: z.string().datetime({ offset: true }),
  correlation_id: z.string().nullable(),
  data: z.unknown(),
  /** Set when the event was produced for a sandbox organization: its test clock's time then. */
  frozen_time: z.string().datetime({ offset: true }).optional(),
});

export type Envelope<T = unknown> = Omit<z.infer<typeof envelopeSchema>, "data"> & { data: T };

export function makeEnvelope<T>(input: {
  type: string;
  organizationId: string;
  data: T;
  occurredAt: Date;
  correlationId?: string | null;
  version?: number;
  id?: string;
}): Envelope<T> {
  return {
    id: input.id ?? randomUUID(),
    type: input.type,
    version: input.version ?? 1,
    organization_id: input.organizationId,
    occurred_at: input.occurredAt.toISOString(),
    correlation_id: input.correlationId ?? null,
    data: input.data,
    ...frozenTimeField(),
  };
}

/** The envelope field that carries a sandbox organization's time to the consumers. */
function frozenTimeField(): { frozen_time?: string } {
  const at = frozenTime();
  return at ? { frozen_time: at.toISOString() } : {};
}
