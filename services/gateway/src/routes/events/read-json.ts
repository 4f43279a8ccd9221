import type { IncomingMessage } from "node:http";
import { AppError } from "@billing/errors";

/** "1mb", "100kb", "512" → bytes (the BODY_LIMIT setting). */
export function byteLimit(limit: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(limit.trim());
  if (!m) throw new Error(`invalid body limit ${limit}`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? "b").toLowerCase() as "b"];
  return Math.floor(Number(m[1]) * unit);
}

/** An HTTP error that is not one of Lago's AppErrors (body-parser's 413, as the other routes answer). */
export class HttpStatus extends Error {
  constructor(readonly status: number, readonly text: string) {
    super(text);
  }
}

/**
 * The JSON body, read without body-parser (this is the ingestion hot path): a body over the
 * limit is 413, invalid JSON or a NUL character (a JSON string can only carry one escaped) is
 * Lago's bare 400, as the API's other routes answer.
 */
export function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on("error", () => reject(new HttpStatus(400, "Bad Request")));
    req.on("end", () => {
      if (size > limit) return reject(new HttpStatus(413, "Payload Too Large"));
      const buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      if (buf.includes("\\u0000")) return reject(new AppError("bad_request"));
      try {
        resolve(JSON.parse(buf.toString("utf8")));
      } catch {
        reject(new AppError("bad_request"));
      }
    });
  });
}
