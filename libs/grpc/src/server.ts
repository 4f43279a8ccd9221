import { randomUUID } from "node:crypto";
import {
  Server,
  ServerCredentials,
  status,
  type handleUnaryCall,
  type Metadata,
  type ServiceClientConstructor,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { toGrpcStatus, AppError, isTransientInfrastructureError } from "@billing/errors";
import { atFrozenTime } from "@billing/clock";
import type { Logger } from "@billing/logger";
import { histogram, traceIncomingCall, withRequestId } from "@billing/telemetry";
import { loadService } from "./proto";
import type { Handlers, ServiceRef } from "./typed";
import { HealthImplementation } from "grpc-health-check";

export const REQUEST_ID_KEY = "x-request-id";
/** A sandbox organization's test-clock time, set by the caller: the handler runs at that time. */
export const FROZEN_TIME_KEY = "x-frozen-time";

export interface RpcContext {
  requestId: string;
  logger: Logger;
  metadata: Metadata;
}

type AnyHandler = (request: never, ctx: RpcContext) => Promise<unknown>;

/** A service and its handlers, as a server serves them (built by `bind`, which types them). */
export interface ServiceBinding {
  service: ServiceClientConstructor;
  handlers: Record<string, AnyHandler>;
}

/** Binds typed handlers to the service a ref names: every RPC of the contract must have one. */
export function bind<D>(ref: ServiceRef<D>, handlers: Handlers<D>): ServiceBinding {
  return { service: loadService(ref), handlers: handlers as Record<string, AnyHandler> };
}

export interface GrpcServerHandle {
  port: number;
  health: HealthImplementation;
  shutdown(): Promise<void>;
}

/** Every RPC served: its latency by service, method and gRPC status code (`OK`, `NOT_FOUND`, …). */
const rpcDuration = histogram(
  "grpc_server_handling_seconds",
  "gRPC server latency by service, method and status code",
  ["grpc_service", "grpc_method", "grpc_code"],
);

/** The name of a gRPC status code (3 → INVALID_ARGUMENT). */
const CODE_NAMES = new Map(
  Object.entries(status).flatMap(([name, code]) => (typeof code === "number" ? [[code, name] as const] : [])),
);

/** Wraps a use-case handler: request id, one log line per RPC, its latency, AppError → gRPC status. */
function adapt(
  serviceName: string,
  method: string,
  handler: AnyHandler,
  logger: Logger,
): handleUnaryCall<unknown, unknown> {
  const observe = (code: number, started: bigint) =>
    rpcDuration.observe(
      { grpc_service: serviceName, grpc_method: method, grpc_code: CODE_NAMES.get(code) ?? String(code) },
      elapsedMs(started) / 1000,
    );
  const path = `/${serviceName}/${method}`;
  return (call, callback) => {
    const started = process.hrtime.bigint();
    const requestId = String(call.metadata.get(REQUEST_ID_KEY)[0] ?? randomUUID());
    const log = logger.child({ request_id: requestId, rpc: method });
    const frozen = call.metadata.get(FROZEN_TIME_KEY)[0];
    // bind typed the handler on its method's request and erased it (AnyHandler): this is that method's decoded request
    const run = () => handler(call.request as never, { requestId, logger: log, metadata: call.metadata });
    const traced = () => (frozen ? atFrozenTime(new Date(String(frozen)), run) : run());
    // the ingestion path's methods: in a span only when the caller's trace is sampled (traceIncomingCall)
    traceIncomingCall(path, header(call.metadata), (inContext) =>
      inContext ? withRequestId(requestId, traced) : traced(),
    ).then(
      (response) => {
        observe(status.OK, started);
        log.debug({ ms: elapsedMs(started) }, "rpc ok");
        callback(null, response);
      },
      (err: unknown) => {
        // the database or a peer away for a moment: UNAVAILABLE (a 503 at the gateway; a caller's consumer retries it), not INTERNAL
        const answered =
          !(err instanceof AppError) && isTransientInfrastructureError(err)
            ? new AppError(
                "unavailable",
                "service_unavailable",
                undefined,
                "a database or a peer is away for a moment: try again",
              )
            : err;
        const grpcStatus = toGrpcStatus(answered);
        observe(grpcStatus.code ?? status.UNKNOWN, started);
        if (!(err instanceof AppError) || err.kind === "internal")
          log.error({ err, ms: elapsedMs(started) }, "rpc failed");
        else log.info({ code: err.code, kind: err.kind, ms: elapsedMs(started) }, "rpc refused");
        callback(grpcStatus, null);
      },
    );
  };
}

/** A reader of a call's metadata: the first value of a key, as text. */
const header = (metadata: Metadata) => (key: string) => {
  const value = metadata.get(key)[0];
  return value === undefined ? undefined : String(value);
};

function elapsedMs(started: bigint): number {
  return Number((process.hrtime.bigint() - started) / 1000n) / 1000;
}

/** Starts a gRPC server with the health service and the given bindings. */
export async function startGrpcServer(options: {
  host: string;
  port: number;
  logger: Logger;
  bindings: ServiceBinding[];
}): Promise<GrpcServerHandle> {
  const server = new Server({ "grpc.max_receive_message_length": 16 * 1024 * 1024 });
  const health = new HealthImplementation({ "": "NOT_SERVING" });
  health.addToServer(server);
  for (const { service, handlers } of options.bindings) {
    const implementation: UntypedServiceImplementation = {};
    for (const method of Object.keys(service.service)) {
      const handler = handlers[method];
      // "/billing.usage.v1.Usage/IngestHttp" → "billing.usage.v1.Usage"
      const serviceName = service.service[method]!.path.split("/")[1] ?? "";
      implementation[method] = handler
        ? adapt(serviceName, method, handler, options.logger)
        : adapt(
            serviceName,
            method,
            async () => Promise.reject(new AppError("internal", undefined, undefined, `${method} not implemented`)),
            options.logger,
          );
    }
    server.addService(service.service, implementation);
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${options.host}:${options.port}`, ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  health.setStatus("", "SERVING");
  return {
    port,
    health,
    shutdown: () =>
      new Promise<void>((resolve) => {
        health.setStatus("", "NOT_SERVING");
        const force = setTimeout(() => server.forceShutdown(), 5000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
