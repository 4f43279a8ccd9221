import type { Request, Router } from "express";
import type { z } from "zod";
import type { MethodName, RequestOf, ResponseOf, RpcClient } from "@billing/grpc";
import { presentMeta } from "@billing/views";
import { organizationId } from "./context";
import type { ErrorKeyOf } from "./validation";
import { pageQuery, parseFields, wrapped } from "./validation";
import { codeKey, replied, rpcOptions } from "./rpc-route";

/** The five RPCs behind a code-addressed resource's routes. */
interface CodeRpcs<D> {
  create: MethodName<D>;
  list: MethodName<D>;
  get: MethodName<D>;
  update: MethodName<D>;
  delete: MethodName<D>;
}

/** The type of the field `K` of message `T`; `never` when it has none (a wrong root or RPC fails the build). */
type FieldOf<T, K extends string> = K extends keyof T ? NonNullable<T[K]> : never;
/** The items of the list field `K` of message `T`. */
type ItemOf<T, K extends string> = FieldOf<T, K> extends ReadonlyArray<infer E> ? E : never;
type Sent<D, R extends CodeRpcs<D>, Root extends string> = FieldOf<RequestOf<D, R["create"]>, Root> &
  FieldOf<RequestOf<D, R["update"]>, Root>;
type Answered<D, R extends CodeRpcs<D>, Root extends string, Plural extends string> =
  | FieldOf<ResponseOf<D, R["create"]>, Root>
  | FieldOf<ResponseOf<D, R["get"]>, Root>
  | FieldOf<ResponseOf<D, R["update"]>, Root>
  | FieldOf<ResponseOf<D, R["delete"]>, Root>
  | ItemOf<ResponseOf<D, R["list"]>, Plural>;

/**
 * A catalog resource addressed by its code, with Lago's five routes:
 * `POST /<plural>`, `GET /<plural>` (paginated), `GET|PUT|DELETE /<plural>/:code`.
 * Each body is validated (zod, Lago's field codes) under its root key, turned into the proto input
 * with `toMessage`, sent in one call of the named RPC, and the reply's message presented under the
 * root key. The RPC names, what `toMessage` returns and what `present` takes are checked against
 * the contract: `toMessage` must give the create and update requests' `<root>` field, `present`
 * must take every reply's `<root>` (and the list's `<plural>` items).
 */
export interface CodeResource<
  D,
  R extends CodeRpcs<D>,
  Root extends string,
  Plural extends string,
  CreateIn,
  UpdateIn,
> {
  /** `add_on` → bodies `{"add_on": …}`, answers `{"add_on": …}`. */
  root: Root;
  /** `add_ons` → routes under `/add_ons`, lists `{"add_ons": […], "meta": …}`. */
  plural: Plural;
  rpc: R;
  schemas: { create: z.ZodType<CreateIn>; update: z.ZodType<UpdateIn>; errorKey: ErrorKeyOf };
  toMessage: (input: CreateIn | UpdateIn) => Sent<D, R, Root>;
  present: (message: Answered<D, R, Root, Plural>) => unknown;
}

export function codeResourceRoutes<
  D,
  R extends CodeRpcs<D>,
  Root extends string,
  Plural extends string,
  CreateIn,
  UpdateIn,
>(router: Router, client: RpcClient<D>, resource: CodeResource<D, R, Root, Plural, CreateIn, UpdateIn>): Router {
  const { root, plural, rpc, schemas } = resource;
  type Reply = { [key: string]: unknown; meta?: Parameters<typeof presentMeta>[0] };
  // The requests built here have computed keys (`[root]`), which TypeScript cannot check against a
  // generic RPC; the types above check the pieces (names, toMessage, present) instead.
  const call = (method: MethodName<D>, request: object, req: Request) =>
    client.call(method, request as RequestOf<D, typeof method>, rpcOptions(req)) as Promise<Reply>;
  const one = (reply: Reply) => ({
    [root]: resource.present(replied(reply[root] as Answered<D, R, Root, Plural> | null, root)),
  });
  const body = (req: Request, schema: z.ZodType<CreateIn | UpdateIn>) =>
    resource.toMessage(parseFields(schema, wrapped(req, root), schemas.errorKey));

  router.post(`/${plural}`, async (req, res) => {
    res.json(
      one(await call(rpc.create, { organization_id: organizationId(req), [root]: body(req, schemas.create) }, req)),
    );
  });
  router.get(`/${plural}`, async (req, res) => {
    const reply = await call(rpc.list, { organization_id: organizationId(req), page: pageQuery(req) }, req);
    res.json({
      [plural]: (reply[plural] as Answered<D, R, Root, Plural>[]).map(resource.present),
      meta: presentMeta(reply.meta ?? null),
    });
  });
  router.get(`/${plural}/:code`, async (req, res) => {
    res.json(one(await call(rpc.get, codeKey(req), req)));
  });
  router.put(`/${plural}/:code`, async (req, res) => {
    res.json(one(await call(rpc.update, { ...codeKey(req), [root]: body(req, schemas.update) }, req)));
  });
  router.delete(`/${plural}/:code`, async (req, res) => {
    res.json(one(await call(rpc.delete, codeKey(req), req)));
  });
  return router;
}
