import { randomUUID } from "node:crypto";
import type { Clock } from "@billing/clock";
import { AppError, type ErrorDetails } from "@billing/errors";
import type { CatalogCopies } from "../domain/read-copies";
import { checkEventInput, present, type EventInput } from "../domain/event-input";
import { encodeRequestLines, eventText, type EventLine } from "../domain/ingest-message";
import type { IngestRecord } from "../domain/stored-event";
import { eventKey } from "../domain/usage-event";
import { checkDuplicates, type DuplicateSources } from "./duplicate-check";
import { newTicket } from "./dedup-window";
import type { GroupCommit } from "./group-commit";
import { applyExpression } from "./metric-expressions";

export interface IngestDeps extends DuplicateSources {
  commit: GroupCommit<IngestRecord>;
  clock: Clock;
  copies?: CatalogCopies;
  limits: { maxInFlightEvents: number; maxBacklogEvents: number };
  /** Events accepted and not yet answered, for the in-flight cap (shared by all requests). */
  state: { inFlight: number; lastRequestAt?: number };
}

export interface IngestedEvent {
  svc_id: string;
  transaction_id: string;
  external_subscription_id: string;
  code: string;
  timestamp: string;
  properties_json: string;
  precise_total_amount_cents?: string;
  created_at: string;
}

const tooBusy = (what: string) => new AppError("too_many_requests", "too_many_requests", undefined, what);

/**
 * IngestEvents: validate, refuse when full, refuse duplicates (the whole request), then one
 * group-committed JetStream message; answered once JetStream acknowledged it (durable).
 */
export interface IngestResult {
  lines: EventLine[];
  /** indexes of the events whose stored properties differ from the request's */
  changed: Set<number>;
}

export async function ingestEvents(deps: IngestDeps, organizationId: string, inputs: readonly EventInput[]): Promise<IngestResult> {
  if (!organizationId) throw AppError.validation({ organization_id: ["value_is_mandatory"] });
  if (inputs.length === 0) throw AppError.validation({ events: ["value_is_mandatory"] });
  deps.state.lastRequestAt = performance.now();
  const nowMs = deps.clock.now().getTime();
  const createdAt = new Date(nowMs).toISOString();
  const lines: EventLine[] = new Array(inputs.length);
  /** what storage needs of each event, kept in memory with the message (it then parses nothing) */
  const records: IngestRecord[] = new Array(inputs.length);
  const details: ErrorDetails = {};
  /** events whose stored properties differ from the request's (answered with them) */
  const changed = new Set<number>();
  for (let i = 0; i < inputs.length; i++) {
    const input = inputs[i]!;
    const checked = checkEventInput(input);
    if ("errors" in checked) {
      details[i] = checked.errors;
      continue;
    }
    const timestampMs = present(input, "timestamp_ms") ? input.timestamp_ms! : nowMs;
    let propertiesJson = checked.properties ? input.properties_json! : null;
    const computed = applyExpression(deps.copies, { organizationId, code: input.code, timestampMs, properties: checked.properties });
    if (computed && "error" in computed) {
      details[i] = { properties: [computed.error] };
      continue;
    }
    if (computed) propertiesJson = JSON.stringify(computed.properties);
    if (computed) changed.add(i);
    const line: EventLine = (lines[i] = {
      svcId: randomUUID(),
      transactionId: input.transaction_id,
      externalSubscriptionId: input.external_subscription_id,
      code: input.code,
      timestamp: timestampMs === nowMs ? createdAt : new Date(timestampMs).toISOString(),
      propertiesJson,
      preciseTotalAmountCents: present(input, "precise_total_amount_cents") ? input.precise_total_amount_cents! : null,
      createdAt,
    });
    const properties = computed?.properties ?? checked.properties ?? {};
    records[i] = { org: organizationId, sub: line.externalSubscriptionId, x: line.transactionId, code: line.code, t: Math.trunc(timestampMs), properties, raw: eventText(line), s: 0, batch: "" };
  }
  if (Object.keys(details).length > 0) throw AppError.validation(details);

  if (deps.state.inFlight + inputs.length > deps.limits.maxInFlightEvents) throw tooBusy("too many events in flight");
  if (deps.window.awaitingStorage > deps.limits.maxBacklogEvents) throw tooBusy("storage is behind");
  deps.state.inFlight += inputs.length;
  const ticket = newTicket();
  const keys = records.map((r) => (r.key = eventKey(organizationId, r.sub, r.x)));
  try {
    const duplicates = await checkDuplicates(keys, deps, ticket);
    if (duplicates.length > 0) {
      throw AppError.validation(Object.fromEntries(duplicates.map((i) => [String(i), { transaction_id: ["value_already_exist"] }])));
    }
    try {
      await deps.commit.submit(encodeRequestLines(organizationId, records.map((r) => r.raw)), records);
    } catch (err) {
      deps.window.release(keys, ticket);
      if (err instanceof RangeError) throw AppError.badRequest(err.message);
      throw new AppError("unavailable", undefined, undefined, "events not acknowledged by the ingest stream");
    }
    deps.window.acknowledge(keys, ticket, deps.clock.now().getTime());
  } finally {
    deps.state.inFlight -= inputs.length;
  }
  return { lines, changed };
}

/** IngestEventsResponse.events: every event as stored. */
export function fullReply({ lines, changed }: IngestResult): IngestedEvent[] {
  return lines.map((l, i) => ({
    svc_id: l.svcId,
    transaction_id: l.transactionId,
    external_subscription_id: l.externalSubscriptionId,
    code: l.code,
    timestamp: l.timestamp,
    properties_json: changed.has(i) ? l.propertiesJson! : "",
    ...(l.preciseTotalAmountCents !== null ? { precise_total_amount_cents: l.preciseTotalAmountCents } : {}),
    created_at: l.createdAt,
  }));
}

/** IngestEventsResponse's compact fields: what the caller does not already have. */
export function compactReply({ lines, changed }: IngestResult): { created_at: string; svc_ids: string; changed_properties_json: Record<number, string> } {
  const changedProperties: Record<number, string> = {};
  for (const i of changed) changedProperties[i] = lines[i]!.propertiesJson!;
  return { created_at: lines[0]!.createdAt, svc_ids: lines.map((l) => l.svcId).join(""), changed_properties_json: changedProperties };
}
