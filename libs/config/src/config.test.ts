import { describe, expect, it } from "vitest";
import { z } from "zod";
import { backendServiceSchema, ConfigError, parseConfig, port } from "./index";

describe("parseConfig", () => {
  it("fills defaults for a backend service", () => {
    const config = parseConfig(backendServiceSchema("wallet", 50055), {});
    expect(config).toMatchObject({
      GRPC_HOST: "127.0.0.1",
      GRPC_PORT: 50055,
      MONGO_URL: "mongodb://127.0.0.1:27017",
      MONGO_DB: "billing_wallet",
      NATS_URL: "nats://127.0.0.1:4222",
      LOG_LEVEL: "info",
    });
  });

  it("coerces numbers from strings", () => {
    expect(parseConfig(z.object({ PORT: port(3000) }), { PORT: "8080" }).PORT).toBe(8080);
  });

  it("reports every problem at once", () => {
    const schema = backendServiceSchema("usage", 50053);
    try {
      parseConfig(schema, { GRPC_PORT: "99999", MONGO_URL: "not a url", LOG_LEVEL: "loud" });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems;
      expect(problems).toHaveLength(3);
      expect(problems.join("\n")).toMatch(/GRPC_PORT/);
      expect(problems.join("\n")).toMatch(/MONGO_URL/);
      expect(problems.join("\n")).toMatch(/LOG_LEVEL/);
    }
  });
});

describe("hostPort", () => {
  it("accepts host:port and resolver targets, nothing else", async () => {
    const { hostPort } = await import("./index");
    const schema = hostPort("127.0.0.1:1");
    expect(schema.parse("catalog:50052")).toBe("catalog:50052");
    expect(schema.parse("dns:///billing-catalog.ns.svc:50052")).toBe("dns:///billing-catalog.ns.svc:50052");
    expect(schema.safeParse("catalog").success).toBe(false);
    expect(schema.safeParse("http://x y:1").success).toBe(false);
  });
});
