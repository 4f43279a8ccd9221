import type { Request } from "express";
import type { Logger } from "@billing/logger";

/** What the gateway's middleware attaches to each request. */
export interface RequestContext {
  requestId: string;
  logger: Logger;
  organizationId?: string;
}

export function ctx(req: Request): RequestContext {
  return (req as Request & { ctx: RequestContext }).ctx;
}

export function setCtx(req: Request, value: RequestContext): void {
  (req as Request & { ctx: RequestContext }).ctx = value;
}

/** The authenticated organization (the auth middleware guarantees it on /api/v1). */
export function organizationId(req: Request): string {
  const id = ctx(req).organizationId;
  if (!id) throw new Error("route reached without authentication");
  return id;
}
