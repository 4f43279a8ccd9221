import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isForbiddenAddress } from "../domain/webhook-address";

const MAX_POOLS = 2000;

/** What a receiver answered: a status (any, 2xx counts as delivered), or no answer (refused, reset, timed out). */
export type PostResult = { status: number; body: string } | { status: null; body: string };

/** Posts a webhook to its receiver's URL. */
export interface WebhookPoster {
  /** `pool`: whose connections to use (an endpoint's own, so endpoints sharing a host never wait for each other's sockets) */
  post(url: string, body: string, headers: Record<string, string>, pool?: string): Promise<PostResult>;
  close(): void;
}

/**
 * HTTP(S) with keep-alive connections per endpoint (at most `maxSockets` each; the dispatcher
 * never has more in flight to one endpoint, so no request waits for a socket behind a slow
 * neighbour on the same host), a whole-attempt timeout, and (unless private
 * addresses are allowed) `isForbiddenAddress` at every attempt: on an IP literal before anything
 * is sent (node connects to a literal without a lookup), and in the DNS lookup on every address
 * a host name resolves to, so a name that resolves, or later re-resolves, to an internal address
 * cannot reach internal services.
 */
export function httpPoster(options: { timeoutMs: number; allowPrivate: boolean; maxSockets?: number }): WebhookPoster {
  const lookup: LookupFunction = (
    hostname: string,
    opts: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const list = addresses as LookupAddress[];
      if (!options.allowPrivate && list.some((a) => isForbiddenAddress(a.address))) {
        return callback(
          Object.assign(new Error(`${hostname} resolves to an address webhooks may not reach`), {
            code: "EADDRNOTALLOWED",
          }),
          "",
          0,
        );
      }
      if (opts.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 64, lookup };
  /** by pool, least recently used first; the oldest are closed beyond `MAX_POOLS` */
  const pools = new Map<string, { "http:": http.Agent; "https:": https.Agent }>();
  const poolOf = (key: string) => {
    let pool = pools.get(key);
    if (pool) pools.delete(key);
    else pool = { "http:": new http.Agent(agentOptions), "https:": new https.Agent(agentOptions) };
    pools.set(key, pool);
    if (pools.size > MAX_POOLS) {
      const [oldestKey, oldest] = pools.entries().next().value!;
      pools.delete(oldestKey);
      oldest["http:"].destroy();
      oldest["https:"].destroy();
    }
    return pool;
  };

  return {
    post(url, body, headers, pool = "") {
      return new Promise<PostResult>((resolve) => {
        let settled = false;
        // declared first: an attempt refused before the request exists settles without one
        let timer: NodeJS.Timeout | undefined;
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
        const literal = target.hostname.replace(/^\[|\]$/g, "");
        if (!options.allowPrivate && isIP(literal) && isForbiddenAddress(literal)) {
          return done({ status: null, body: `${target.hostname} is an address webhooks may not reach` });
        }
        const client = target.protocol === "https:" ? https : http;
        const req = client.request(
          target,
          {
            method: "POST",
            agent: poolOf(pool)[target.protocol as "http:" | "https:"],
            headers: {
              "Content-Type": "application/json",
              "Content-Length": Buffer.byteLength(body),
              "User-Agent": "billing-platform-webhooks/1",
              ...headers,
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on("data", (c: Buffer) => {
              if (size < 4096) chunks.push(c);
              size += c.length;
            });
            res.on("end", () =>
              done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8").slice(0, 4096) }),
            );
            res.on("error", (err) => done({ status: null, body: err.message }));
          },
        );
        timer = setTimeout(() => {
          req.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
        req.on("error", (err) => done({ status: null, body: err.message }));
        req.end(body);
      });
    },
    close() {
      for (const pool of pools.values()) {
        pool["http:"].destroy();
        pool["https:"].destroy();
      }
      pools.clear();
    },
  };
}
