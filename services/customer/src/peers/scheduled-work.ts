import { Rpc, type ScheduledWorkRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";

/** A service with time-driven work, as a test clock drives it. */
export interface ScheduledWorkPeer {
  name: string;
  /** Its first work due strictly after `after` for the organization, or null. */
  nextDue(organizationId: string, after: Date): Promise<Date | null>;
  /** Runs all its work due up to `at` (the call runs at that frozen time); how much was done. */
  runDue(organizationId: string, at: Date): Promise<number>;
  close(): void;
}

/** ScheduledWorkService of one peer over gRPC (a step may bill thousands of subscriptions: long deadline). */
export function grpcScheduledWork(name: string, address: string, deadlineMs = 120_000): ScheduledWorkPeer {
  const client = new RpcClient<ScheduledWorkRpc>(Rpc.scheduledWork, address, deadlineMs);
  return {
    name,
    async nextDue(organizationId, after) {
      const res = await client.call("NextDue", { organization_id: organizationId, after: after.toISOString() });
      return res.due_at ? new Date(res.due_at) : null;
    },
    async runDue(organizationId, at) {
      return (await client.call("RunDue", { organization_id: organizationId, at: at.toISOString() })).done;
    },
    close: () => client.close(),
  };
}
