import type { Request, Response } from "express";
import { AppError } from "@billing/errors";
import { ctx, organizationId } from "./context";

/**
 * What every route that answers through one gRPC call needs: the call's options (the request id),
 * org-scoped keys from the path, and the reply's message presented under its Lago root key.
 */

/** gRPC call options of this request (its id travels to the service's logs). */
export const rpcOptions = (req: Request) => ({ requestId: ctx(req).requestId });

/** A path parameter as one string (express types them loosely). */
export function pathParam(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === "string" ? value : "";
}

/** `{organization_id, code}` of a resource addressed by its code (`/taxes/:code`). */
export const codeKey = (req: Request) => ({ organization_id: organizationId(req), code: pathParam(req, "code") });

/** `{organization_id, id}` of a resource addressed by its id (`/invoices/:id`). */
export const idKey = (req: Request) => ({ organization_id: organizationId(req), id: pathParam(req, "id") });

/** `{organization_id, external_id}` of a resource addressed by its external id. */
export const externalIdKey = (req: Request, param = "external_id") => ({
  organization_id: organizationId(req),
  external_id: pathParam(req, param),
});

/** A reply's message that the contract always sets; its absence is the service's bug (500). */
export function replied<T>(message: T | null | undefined, what = "message"): T {
  if (message === null || message === undefined) throw AppError.internal(`the service answered without its ${what}`);
  return message;
}

/** Sends `{[root]: present(reply[root])}`: the usual answer of a single-resource route. */
export function replySender<K extends string, T>(root: K, present: (message: T) => unknown) {
  return (res: Response, reply: { [key in K]: T | null }) =>
    res.json({ [root]: present(replied<T>(reply[root], root)) });
}
