import type { Request, Router } from "express";
import type { z } from "zod";
import type { MethodName, RpcClient } from "@billing/grpc";
import { organizationId } from "./context";
import type { ErrorKeyOf } from "./validation";
import { pageQuery, parseFields, wrapped } from "./validation";
import { presentMeta } from "./presenting";
import { codeKey, replied, rpcOptions } from "./rpc-route";

/**
 * A catalog resource addressed by its code, with Lago's five routes:
 * `POST /<plural>`, `GET /<plural>` (paginated), `GET|PUT|DELETE /<plural>/:code`.
 * Each body is validated (zod, Lago's field codes) under its root key, turned into the proto input
 * with `toMessage`, sent in one call of the named RPC (names checked against the contract), and the
 * reply's message presented under the root key.
 */
export interface CodeResource<D, CreateIn, UpdateIn, Out> {
  /** `add_on` → routes under `/add_ons`, bodies `{"add_on": …}`, answers `{"add_on": …}` / `{"add_ons": […], "meta": …}`. */
  root: string;
  plural: string;
  rpc: { create: MethodName<D>; list: MethodName<D>; get: MethodName<D>; update: MethodName<D>; delete: MethodName<D> };
  schemas: { create: z.ZodType<CreateIn>; update: z.ZodType<UpdateIn>; errorKey: ErrorKeyOf };
  toMessage: (input: CreateIn | UpdateIn) => object;
  present: (message: Out) => unknown;
}

type AnyCall = (method: string, request: object, options: object) => Promise<Record<string, unknown>>;

export function codeResourceRoutes<D, CreateIn, UpdateIn, Out>(
  router: Router,
  client: RpcClient<D>,
  resource: CodeResource<D, CreateIn, UpdateIn, Out>,
): Router {
  const { root, plural, rpc, schemas } = resource;
  const call = client.call.bind(client) as unknown as AnyCall;
  const one = (reply: Record<string, unknown>) => ({ [root]: resource.present(replied(reply[root] as Out | null, root)) });
  const body = (req: Request, schema: z.ZodType<CreateIn | UpdateIn>) => resource.toMessage(parseFields(schema, wrapped(req, root), schemas.errorKey));

  router.post(`/${plural}`, async (req, res) => {
    const message = { organization_id: organizationId(req), [root]: body(req, schemas.create) };
    res.json(one(await call(rpc.create, message, rpcOptions(req))));
  });
  router.get(`/${plural}`, async (req, res) => {
    const reply = await call(rpc.list, { organization_id: organizationId(req), page: pageQuery(req) }, rpcOptions(req));
    res.json({ [plural]: (reply[plural] as Out[]).map(resource.present), meta: presentMeta(reply.meta as Parameters<typeof presentMeta>[0]) });
  });
  router.get(`/${plural}/:code`, async (req, res) => {
    res.json(one(await call(rpc.get, codeKey(req), rpcOptions(req))));
  });
  router.put(`/${plural}/:code`, async (req, res) => {
    res.json(one(await call(rpc.update, { ...codeKey(req), [root]: body(req, schemas.update) }, rpcOptions(req))));
  });
  router.delete(`/${plural}/:code`, async (req, res) => {
    res.json(one(await call(rpc.delete, codeKey(req), rpcOptions(req))));
  });
  return router;
}
