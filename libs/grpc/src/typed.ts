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

/**
 * The RPC names of a definition (the generated definitions only hold the PascalCase names). The
 * generated interfaces extend grpc's ServiceDefinition, whose string index signature would make
 * every string a method name: it is removed, so only the declared RPCs remain.
 */
export type MethodName<D> = keyof { [K in keyof D as string extends K ? never : K]: D[K] } & string;

// Read structurally from the generated MethodDefinition (its four type parameters are the
// serializers' and deserializers' value types), whichever copy of @grpc/proto-loader declared it.
/** What a client sends (the loose generated input type). */
export type RequestOf<D, M extends MethodName<D>> = D[M] extends { requestSerialize: (value: infer Req) => unknown }
  ? Req
  : never;
/** What a client receives (defaults applied: every scalar present, repeated fields as arrays). */
export type ResponseOf<D, M extends MethodName<D>> = D[M] extends { responseDeserialize: (bytes: Buffer) => infer Res }
  ? Res
  : never;
/** What a handler receives. */
export type HandlerRequestOf<D, M extends MethodName<D>> = D[M] extends {
  requestDeserialize: (bytes: Buffer) => infer Req;
}
  ? Req
  : never;
/** What a handler answers: the generated input type, where an absent optional field may also be null (protobufjs skips nulls). */
export type HandlerReplyOf<D, M extends MethodName<D>> = D[M] extends {
  responseSerialize: (value: infer Res) => unknown;
}
  ? Nullable<Res>
  : never;

/** Optional fields may be null as well as absent, all the way down. */
export type Nullable<T> = T extends string | number | boolean | bigint | Buffer | Uint8Array
  ? T
  : T extends ReadonlyArray<infer E>
    ? ReadonlyArray<Nullable<E>>
    : T extends object
      ? {
          [K in keyof T]: undefined extends T[K]
            ? Nullable<Exclude<T[K], undefined>> | null | undefined
            : Nullable<T[K]>;
        }
      : T;

/** One handler per RPC of the service: proto in, use case, proto out. */
export type Handlers<D> = {
  [M in MethodName<D>]: (request: HandlerRequestOf<D, M>, ctx: RpcContext) => Promise<HandlerReplyOf<D, M>>;
};
