import { describe, expect, it } from "vitest";
import { HOT_RPC_METHODS, sampledTraceparent, traceIncomingCall, traceOutgoingCall } from "./tracing";

describe("the ingestion path's RPCs while tracing is off", () => {
  it("reads a W3C traceparent's sampled flag", () => {
    expect(sampledTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")).toBe(true);
    expect(sampledTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-03")).toBe(true);
    expect(sampledTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00")).toBe(false);
    expect(sampledTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331")).toBe(false);
    expect(sampledTraceparent(undefined)).toBe(false);
  });

  it("makes and serves calls as they are: no header added, the handler in its usual context", async () => {
    expect(HOT_RPC_METHODS).toContain("IngestHttp");
    const headers: Record<string, string> = {};
    let ended = false;
    traceOutgoingCall(
      "/billing.usage.v1.UsageService/IngestHttp",
      (k, v) => (headers[k] = v),
      (end) => {
        end(null);
        ended = true;
      },
    );
    expect({ headers, ended }).toEqual({ headers: {}, ended: true });
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    await expect(
      traceIncomingCall(
        "/billing.usage.v1.UsageService/IngestHttp",
        () => traceparent,
        async (inContext) => inContext,
      ),
    ).resolves.toBe(true);
  });
});
