import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isPrivateAddress } from "../domain/webhook-endpoint";

/** What a receiver answered: a status (any, 2xx counts as delivered), or no answer (refused, reset, timed out). */
export type PostResult = { status: number; body: string } | { status: null; body: string };

/** Posts a webhook to its receiver's URL. */
export interface WebhookPoster {
  post(url: string, body: string, headers: Record<string, string>): Promise<PostResult>;
  close(): void;
}

/**
 * HTTP(S) with keep-alive connections per host, a whole-attempt timeout, and (unless private
 * addresses are allowed) a DNS lookup that refuses internal addresses, so a host name that
 * resolves, or later re-resolves, to one cannot reach internal services.
 */
export function httpPoster(options: { timeoutMs: number; allowPrivate: boolean; maxSockets?: number }): WebhookPoster {
  const lookup = (hostname: string, opts: LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const list = addresses as LookupAddress[];
      if (!options.allowPrivate && list.some((a) => isPrivateAddress(a.address))) {
        return callback(Object.assign(new Error(`${hostname} resolves to an address webhooks may not reach`), { code: "EADDRNOTALLOWED" }), "", 0);
      }
      if (opts.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 64, lookup: lookup as never };
  const agents = { "http:": new http.Agent(agentOptions), "https:": new https.Agent(agentOptions) };

  return {
    post(url, body, headers) {
      return new Promise<PostResult>((resolve) => {
        let settled = false;
        const done = (r: PostResult) => {
          if (!settled) {
            settled = true;
            clearTimeout(timer);
            resolve(r);
          }
        };
        let target: URL;
        try {
          target = new URL(url);
        } catch {
          return done({ status: null, body: "invalid url" });
        }
        const client = target.protocol === "https:" ? https : http;
        const req = client.request(target, {
          method: "POST", agent: agents[target.protocol as "http:" | "https:"],
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), "User-Agent": "billing-platform-webhooks/1", ...headers },
        }, (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (c: Buffer) => {
            if (size < 4096) chunks.push(c);
            size += c.length;
          });
          res.on("end", () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8").slice(0, 4096) }));
          res.on("error", (err) => done({ status: null, body: err.message }));
        });
        const timer = setTimeout(() => {
          req.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
        req.on("error", (err) => done({ status: null, body: err.message }));
        req.end(body);
      });
    },
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
