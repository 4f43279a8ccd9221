import { randomUUID } from "node:crypto";

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's X-Request-Id when it is sane, a new UUID otherwise. */
export function requestIdOf(given: string | string[] | undefined): string {
  return typeof given === "string" && SANE.test(given) ? given : randomUUID();
}
