import type { IncomingMessage } from "node:http";
import { HttpStatus } from "../../http/error-response";

/** "1mb", "100kb", "512" → bytes (the BODY_LIMIT setting). */
export function byteLimit(limit: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(limit.trim());
  if (!m) throw new Error(`invalid body limit ${limit}`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? "b").toLowerCase() as "b"];
  return Math.floor(Number(m[1]) * unit);
}

/**
 * The body's bytes, unparsed (the usage service parses and validates them: the gateway passes the
 * ingestion hot path through). A body over the limit is 413, as the API's other routes answer.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
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
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
  });
}
