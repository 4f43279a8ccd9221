import type { MethodDefinition } from "@grpc/proto-loader";
import type { RpcContext } from "./server";

/**
 * A gRPC service named by its proto file and fully-qualified name, typed by the service definition
 * that `proto-loader-gen-types` generates from that file (`@billing/contracts`). Clients and
 * handlers built from a ref are typed per method: a misspelt RPC or field fails the build.
 */
export interface ServiceRef<D> {
  /** Path under proto/, e.g. "billing/catalog/v1/taxes.proto". */
  readonly file: string;
  /** e.g. "billing.catalog.v1.TaxService". */
  readonly name: string;
  /** Type only: never set. */
  readonly definition?: D;
}

export const serviceRef = <D>(file: string, name: string): ServiceRef<D> => ({ file, name });

/** The RPC names of a definition (the generated definitions only hold the PascalCase names). */
export type MethodName<D> = Extract<keyof D, string>;

/** What a client sends (the loose generated input type). */
export type RequestOf<D, M extends MethodName<D>> = D[M] extends MethodDefinition<infer Req, any, any, any> ? Req : never;
/** What a client receives (defaults applied: every scalar present, repeated fields as arrays). */
export type ResponseOf<D, M extends MethodName<D>> = D[M] extends MethodDefinition<any, any, any, infer Res> ? Res : never;
/** What a handler receives. */
export type HandlerRequestOf<D, M extends MethodName<D>> = D[M] extends MethodDefinition<any, any, infer Req, any> ? Req : never;
/** What a handler answers: the generated input type, where an absent optional field may also be null (protobufjs skips nulls). */
export type HandlerReplyOf<D, M extends MethodName<D>> = D[M] extends MethodDefinition<any, infer Res, any, any> ? Nullable<Res> : never;

/** Optional fields may be null as well as absent, all the way down. */
export type Nullable<T> = T extends string | number | boolean | bigint | Buffer | Uint8Array
  ? T
  : T extends ReadonlyArray<infer E>
    ? ReadonlyArray<Nullable<E>>
    : T extends object
      ? { [K in keyof T]: undefined extends T[K] ? Nullable<Exclude<T[K], undefined>> | null | undefined : Nullable<T[K]> }
      : T;

/** One handler per RPC of the service: proto in, use case, proto out. */
export type Handlers<D> = {
  [M in MethodName<D>]: (request: HandlerRequestOf<D, M>, ctx: RpcContext) => Promise<HandlerReplyOf<D, M>>;
};
