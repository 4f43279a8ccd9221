import { parseAdvanceFees, Rpc, type AdvanceFeeRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";
import type { PricedAdvanceFee } from "../domain/advance-fees";

/** One ingested envelope to price: its events as JSON text (Lago's EventObject each). */
export interface EnvelopeToPrice {
  organizationId: string;
  envelopeId: string;
  eventsJson: string;
}

/**
 * The usage service's pay-in-advance pricing: the fees of ingested envelopes (the same answer
 * however often asked), checked with @billing/contracts' advanceFeeSchema (a malformed answer
 * throws: the batch is retried and nothing is stored).
 */
export interface AdvanceFeesPeer {
  price(organizationId: string, envelopeId: string, eventsJson: string): Promise<PricedAdvanceFee[]>;
  /** Consecutive envelopes in stream order, one call: their fees, one list per envelope in the same order. */
  priceBatch(envelopes: readonly EnvelopeToPrice[]): Promise<PricedAdvanceFee[][]>;
  close(): void;
}

export function grpcAdvanceFees(address: string, deadlineMs = 60_000): AdvanceFeesPeer {
  const client = new RpcClient<AdvanceFeeRpc>(Rpc.advanceFees, address, deadlineMs);
  return {
    async price(organizationId, envelopeId, eventsJson) {
      const res = await client.call("PriceAdvanceEvents", { organization_id: organizationId, envelope_id: envelopeId, events_json: eventsJson });
      return parseAdvanceFees(res.fees_json);
    },
    async priceBatch(envelopes) {
      if (envelopes.length === 0) return [];
      const res = await client.call("PriceAdvanceBatch", {
        envelopes: envelopes.map((e) => ({ organization_id: e.organizationId, envelope_id: e.envelopeId, events_json: e.eventsJson })),
      });
      if (res.envelopes.length !== envelopes.length) throw new Error(`PriceAdvanceBatch answered ${res.envelopes.length} envelopes for ${envelopes.length}`);
      return res.envelopes.map((e, i) => {
        if (e.envelope_id !== envelopes[i]!.envelopeId) throw new Error(`PriceAdvanceBatch answered envelope ${e.envelope_id} for ${envelopes[i]!.envelopeId}`);
        return parseAdvanceFees(e.fees_json);
      });
    },
    close: () => client.close(),
  };
}
