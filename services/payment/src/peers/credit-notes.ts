import { Rpc, type CreditNoteRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";

/** Invoicing's credit notes as the payment service sees them: a refund's outcome told to its note. */
export interface CreditNotes {
  /** The note's refund_status (the same status again changes nothing). */
  setRefundStatus(organizationId: string, creditNoteId: string, status: "succeeded" | "failed"): Promise<void>;
  close(): void;
}

export function grpcCreditNotes(address: string): CreditNotes {
  const client = new RpcClient<CreditNoteRpc>(Rpc.creditNotes, address, 10_000);
  return {
    async setRefundStatus(organizationId, creditNoteId, status) {
      await client.call("UpdateCreditNote", {
        organization_id: organizationId,
        id: creditNoteId,
        refund_status: status,
      });
    },
    close: () => client.close(),
  };
}
