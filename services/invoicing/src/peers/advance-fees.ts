import { Rpc, type AdvanceFeeRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";
import type { PricedAdvanceFee } from "../domain/advance-fees";

/** The usage service's pay-in-advance pricing: the fees of one ingested envelope (the same answer however often asked). */
export interface AdvanceFeesPeer {
  price(organizationId: string, envelopeId: string, eventsJson: string): Promise<PricedAdvanceFee[]>;
  close(): void;
}

export function grpcAdvanceFees(address: string, deadlineMs = 60_000): AdvanceFeesPeer {
  const client = new RpcClient<AdvanceFeeRpc>(Rpc.advanceFees, address, deadlineMs);
  return {
    async price(organizationId, envelopeId, eventsJson) {
      const res = await client.call("PriceAdvanceEvents", { organization_id: organizationId, envelope_id: envelopeId, events_json: eventsJson });
      return res.fees_json ? (JSON.parse(res.fees_json) as PricedAdvanceFee[]) : [];
    },
    close: () => client.close(),
  };
}
