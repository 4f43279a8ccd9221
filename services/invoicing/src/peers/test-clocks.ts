import { Rpc, type CustomerRpc } from "@billing/contracts";
import { isAppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";

/**
 * The customer service's test clocks: the frozen time of a sandbox organization, for work that
 * arrives without it (usage envelopes are stored and announced in the background, outside the
 * request that carried it). An organization without a test clock is remembered for a minute.
 */
export interface TestClocks {
  frozenTime(organizationId: string): Promise<Date | null>;
  close(): void;
}

export function grpcTestClocks(address: string, ordinaryTtlMs = 60_000): TestClocks {
  const client = new RpcClient<CustomerRpc>(Rpc.customer, address, 5_000);
  const ordinary = new Map<string, number>();
  return {
    async frozenTime(organizationId) {
      if ((ordinary.get(organizationId) ?? 0) > performance.now()) return null;
      try {
        const res = await client.call("GetTestClock", { organization_id: organizationId });
        if (res.test_clock?.frozen_time) return new Date(res.test_clock.frozen_time);
      } catch (err) {
        if (!(isAppError(err) && err.kind === "not_found")) throw err;
      }
      if (ordinary.size > 10_000) ordinary.clear();
      ordinary.set(organizationId, performance.now() + ordinaryTtlMs);
      return null;
    },
    close: () => client.close(),
  };
}
