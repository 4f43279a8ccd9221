import type { ValidEvent } from "./validators";

/** IngestEvents' request: the validated events are already in the proto's shape. */
export const toIngestRequest = (organizationId: string, events: readonly ValidEvent[]) => ({ organization_id: organizationId, events });
