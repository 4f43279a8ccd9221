import { GRPC_PORTS, hostPort, logLevel, port, type BackendService } from "@billing/config";
import { z } from "zod";

const addr = (service: BackendService) => hostPort(`127.0.0.1:${GRPC_PORTS[service]}`);

export const gatewayConfigSchema = z.object({
  PORT: port(3000),
  HOST: z.string().default("0.0.0.0"),
  LOG_LEVEL: logLevel,
  BODY_LIMIT: z.string().default("1mb"),
  API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  GRPC_DEADLINE_MS: z.coerce.number().int().positive().default(5_000),
  CUSTOMER_GRPC_ADDR: addr("customer"),
  CATALOG_GRPC_ADDR: addr("catalog"),
  USAGE_GRPC_ADDR: addr("usage"),
  INVOICING_GRPC_ADDR: addr("invoicing"),
  WALLET_GRPC_ADDR: addr("wallet"),
  PAYMENT_GRPC_ADDR: addr("payment"),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
