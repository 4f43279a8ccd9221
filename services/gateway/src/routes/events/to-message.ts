import type { ValidEvent } from "./validators";

/**
 * IngestEvents' request: the validated events are already EventInput's shape, sent as one JSON
 * string (events_json: far cheaper than one proto message per event); the reply is the compact
 * one (see presenter).
 */
export const toIngestRequest = (organizationId: string, events: readonly ValidEvent[]) => ({
  organization_id: organizationId,
  events_json: JSON.stringify(events),
  compact_reply: true,
});
