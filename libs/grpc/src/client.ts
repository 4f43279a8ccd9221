import { randomUUID } from "node:crypto";
import { credentials, Metadata, type Client, type ServiceError } from "@grpc/grpc-js";
import { frozenTime } from "@billing/clock";
import { fromGrpcError } from "@billing/errors";
import { carryRequestId, currentRequestId, traceOutgoingCall } from "@billing/telemetry";
import { loadService } from "./proto";
import { FROZEN_TIME_KEY, REQUEST_ID_KEY } from "./server";
import type { MethodName, RequestOf, ResponseOf, ServiceRef } from "./typed";

export interface CallOptions {
  requestId?: string;
  deadlineMs?: number;
}

/** A unary method of grpc-js' generic client, attached by name: its reply is decoded by the method's own deserializer. */
type UnaryMethod = (
  this: Client,
  request: unknown,
  metadata: Metadata,
  options: { deadline: Date },
  callback: (err: ServiceError | null, response: unknown) => void,
) => unknown;

/** A client of one service, typed by its ref: every call has a deadline and carries the request id. */
export class RpcClient<D> {
  private readonly client: Client & Record<string, UnaryMethod>;
  /** Each method's path (`/package.Service/Method`). */
  private readonly paths: Record<string, string>;

  constructor(
    ref: ServiceRef<D>,
    readonly address: string,
    private readonly defaultDeadlineMs = 5000,
  ) {
    const service = loadService(ref);
    this.paths = Object.fromEntries(Object.entries(service.service).map(([name, method]) => [name, method.path]));
    this.client = new service(address, credentials.createInsecure(), {
      "grpc.max_receive_message_length": 16 * 1024 * 1024,
      "grpc.keepalive_time_ms": 30_000,
      // A restarted peer is found again within seconds, not after gRPC's default two-minute backoff.
      "grpc.initial_reconnect_backoff_ms": 100,
      "grpc.max_reconnect_backoff_ms": 2_000,
    }) as Client & Record<string, UnaryMethod>;
  }

  call<M extends MethodName<D>>(
    method: M,
    request: RequestOf<D, M>,
    options: CallOptions = {},
  ): Promise<ResponseOf<D, M>> {
    type Res = ResponseOf<D, M>;
    const metadata = new Metadata();
    // a call made while serving a request carries that request's id (tracing on: from the context)
    const requestId = options.requestId ?? currentRequestId() ?? randomUUID();
    metadata.set(REQUEST_ID_KEY, requestId);
    // work done for a sandbox organization carries its test clock's time to the peer
    const frozen = frozenTime();
    if (frozen) metadata.set(FROZEN_TIME_KEY, frozen.toISOString());
    const deadline = new Date(Date.now() + (options.deadlineMs ?? this.defaultDeadlineMs));
    const fn = this.client[method];
    if (typeof fn !== "function") return Promise.reject(new Error(`unknown RPC ${method}`));
    return new Promise<Res>((resolve, reject) => {
      // tracing on: the call's span and the baggage sent along carry the request id
      // (the ingestion path's methods: only when sampled, see traceOutgoingCall)
      carryRequestId(requestId, () =>
        traceOutgoingCall(
          this.paths[method] ?? `/${String(method)}`,
          (key, value) => metadata.set(key, value),
          (end) =>
            fn.call(this.client, request, metadata, { deadline }, (err, response) => {
              end(err);
              if (err) reject(fromGrpcError(err));
              else resolve(response as Res); // decoded by the method's response deserializer: the method's reply type
            }),
        ),
      );
    });
  }

  close(): void {
    this.client.close();
  }
}
