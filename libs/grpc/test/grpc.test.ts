import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@billing/errors";
import { Rpc, type CustomerRpc } from "@billing/contracts";
import { checkHealth, loadService, RpcClient, startGrpcServer, type GrpcServerHandle } from "@billing/grpc";
import { atFrozenTime, systemClock } from "@billing/clock";
import { silentLogger } from "@billing/logger";

// A real server and client over loopback, using the customer contract with stand-in handlers.
const service = loadService(Rpc.customer);
let server: GrpcServerHandle;
let client: RpcClient<CustomerRpc>;

beforeAll(async () => {
  server = await startGrpcServer({
    host: "127.0.0.1",
    port: 0,
    logger: silentLogger,
    bindings: [
      {
        service,
        handlers: {
          AuthenticateApiKey: async (req: { api_key: string }, ctx) => {
            if (req.api_key === "bad") throw AppError.unauthenticated();
            if (req.api_key === "slow") await new Promise((r) => setTimeout(r, 500));
            if (req.api_key === "crash") throw new Error("secret internals");
            if (req.api_key === "clock")
              return { organization_id: "org-1", organization_name: systemClock.now().toISOString() };
            return { organization_id: "org-1", organization_name: ctx.requestId };
          },
          GetCustomer: async () => {
            throw AppError.validation({ "1": { transaction_id: ["value_already_exist"] } });
          },
        },
      },
    ],
  });
  client = new RpcClient(Rpc.customer, `127.0.0.1:${server.port}`, 2000);
});

afterAll(async () => {
  client.close();
  await server.shutdown();
});

describe("gRPC server and client", () => {
  it("carries the request id in metadata", async () => {
    const res = await client.call("AuthenticateApiKey", { api_key: "k" }, { requestId: "req-42" });
    expect(res.organization_name).toBe("req-42");
  });

  it("returns the handler's AppError intact", async () => {
    await expect(client.call("AuthenticateApiKey", { api_key: "bad" })).rejects.toMatchObject({
      kind: "unauthenticated",
    });
    const err = await client.call("GetCustomer", { organization_id: "o", external_id: "x" }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.details).toEqual({ "1": { transaction_id: ["value_already_exist"] } });
  });

  it("turns an unexpected failure into a bare internal error", async () => {
    const err = await client.call("AuthenticateApiKey", { api_key: "crash" }).catch((e) => e);
    expect(err.kind).toBe("internal");
    expect(err.message).not.toContain("secret");
  });

  it("enforces the deadline", async () => {
    await expect(client.call("AuthenticateApiKey", { api_key: "slow" }, { deadlineMs: 100 })).rejects.toMatchObject({
      kind: "timeout",
    });
  });

  it("serves the standard health service", async () => {
    expect(await checkHealth(`127.0.0.1:${server.port}`)).toBe(true);
    expect(await checkHealth("127.0.0.1:1", 300)).toBe(false);
  });

  it("runs the handler at the caller's frozen time (a sandbox organization's test clock)", async () => {
    const frozen = new Date("2024-01-31T23:00:00.000Z");
    const res = await atFrozenTime(frozen, () => client.call("AuthenticateApiKey", { api_key: "clock" }));
    expect(res.organization_name).toBe(frozen.toISOString());
    const now = await client.call("AuthenticateApiKey", { api_key: "clock" });
    expect(Math.abs(Date.parse(now.organization_name) - Date.now())).toBeLessThan(5000);
  });
});
