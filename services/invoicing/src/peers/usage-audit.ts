import { Rpc, usageEventFromProto, type UsageAuditRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";
import type {
  AdvanceFeesAsk,
  RederiveAsk,
  RederivedAdvanceChargeData,
  RederivedChargeData,
} from "../domain/invoice-audit";

/** The usage service's raw-event re-derivation (UsageAuditService), one call per subscription and pricing instant. */
export interface UsageAuditPeer {
  rederive(organizationId: string, ask: RederiveAsk, lateLimit?: number): Promise<RederivedChargeData[]>;
  /** pay-in-advance fees, replayed from the stored events (asks of one external subscription), one answer per ask */
  rederiveAdvance(
    organizationId: string,
    externalSubscriptionId: string,
    asks: readonly AdvanceFeesAsk[],
  ): Promise<RederivedAdvanceChargeData[]>;
  close(): void;
}

export function grpcUsageAudit(address: string, deadlineMs = 60_000): UsageAuditPeer {
  const client = new RpcClient<UsageAuditRpc>(Rpc.usageAudit, address, deadlineMs);
  return {
    async rederive(organizationId, ask, lateLimit = 20) {
      if (ask.snapshots.length === 0) return [];
      const res = await client.call("RederiveCharges", {
        organization_id: organizationId,
        external_subscription_id: ask.externalSubscriptionId,
        snapshots: ask.snapshots.map((s) => s.snapshot),
        ...(ask.billedThrough ? { billed_through: ask.billedThrough.toISOString() } : {}),
        late_events_limit: lateLimit,
      });
      return res.charges.map((c) => ({
        fees: c.fees.map((f) => ({
          charge_filter_index: f.charge_filter_index ?? null,
          grouped_by: f.grouped_by,
          true_up: f.true_up,
          units: f.units,
          events_count: Number(f.events_count),
          amount_cents: Number(f.amount_cents),
          precise_amount_cents: f.precise_amount_cents,
          persistable: f.persistable,
        })),
        events_read: Number(c.events_read),
        late_events_count: Number(c.late_events_count),
        // the events' properties are the customers' JSON objects: checked (a malformed answer throws)
        late_events: c.late_events.map(usageEventFromProto),
      }));
    },
    async rederiveAdvance(organizationId, externalSubscriptionId, asks) {
      if (asks.length === 0) return [];
      const res = await client.call("RederiveAdvanceFees", {
        organization_id: organizationId,
        external_subscription_id: externalSubscriptionId,
        asks: asks.map((a) => ({
          subscription_id: a.subscriptionId,
          charge_id: a.chargeId,
          from: a.from.toISOString(),
          to: a.to.toISOString(),
          fee_ids: a.feeIds,
          charge_version: a.chargeVersion ?? "",
        })),
      });
      return res.charges.map((c) => ({
        error: c.error || null,
        billable_metric_code: c.billable_metric_code,
        events_read: Number(c.events_read),
        fees: c.fees.map((f) => ({
          fee_id: f.fee_id,
          event_transaction_id: f.event_transaction_id,
          event_timestamp: f.event_timestamp,
          charge_filter_index: f.charge_filter_index ?? null,
          grouped_by: f.grouped_by,
          units: f.units,
          amount_cents: Number(f.amount_cents),
          precise_amount_cents: f.precise_amount_cents,
          replay_position: Number(f.replay_position),
        })),
      }));
    },
    close: () => client.close(),
  };
}
