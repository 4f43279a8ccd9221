import {
  advanceFeesFromProto,
  Rpc,
  usageEventToProto,
  type AdvanceFeeData,
  type AdvanceFeeRpc,
  type UsageEventData,
} from "@billing/contracts";
import { RpcClient } from "@billing/grpc";

/** One ingested envelope to price: its events (Lago's EventObject each). */
export interface EnvelopeToPrice {
  organizationId: string;
  envelopeId: string;
  events: readonly UsageEventData[];
}

/**
 * The usage service's pay-in-advance pricing: the fees of ingested envelopes (the same answer
 * however often asked), typed by the AdvanceFeeSet message (@billing/contracts advanceFeesFromProto:
 * a fee naming a charge part the answer lacks throws, the batch is retried and nothing is stored).
 */
export interface AdvanceFeesPeer {
  price(organizationId: string, envelopeId: string, events: readonly UsageEventData[]): Promise<AdvanceFeeData[]>;
  /** Consecutive envelopes in stream order, one call: their fees, one list per envelope in the same order. */
  priceBatch(envelopes: readonly EnvelopeToPrice[]): Promise<AdvanceFeeData[][]>;
  close(): void;
}

export function grpcAdvanceFees(address: string, deadlineMs = 60_000): AdvanceFeesPeer {
  const client = new RpcClient<AdvanceFeeRpc>(Rpc.advanceFees, address, deadlineMs);
  return {
    async price(organizationId, envelopeId, events) {
      const res = await client.call("PriceAdvanceEvents", {
        organization_id: organizationId,
        envelope_id: envelopeId,
        events: events.map(usageEventToProto),
      });
      return advanceFeesFromProto(res.fees);
    },
    async priceBatch(envelopes) {
      if (envelopes.length === 0) return [];
      const res = await client.call("PriceAdvanceBatch", {
        envelopes: envelopes.map((e) => ({
          organization_id: e.organizationId,
          envelope_id: e.envelopeId,
          events: e.events.map(usageEventToProto),
        })),
      });
      if (res.envelopes.length !== envelopes.length)
        throw new Error(`PriceAdvanceBatch answered ${res.envelopes.length} envelopes for ${envelopes.length}`);
      return res.envelopes.map((e, i) => {
        if (e.envelope_id !== envelopes[i]!.envelopeId)
          throw new Error(`PriceAdvanceBatch answered envelope ${e.envelope_id} for ${envelopes[i]!.envelopeId}`);
        return advanceFeesFromProto(e.fees);
      });
    },
    close: () => client.close(),
  };
}
