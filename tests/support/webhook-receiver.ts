import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import jwt from "jsonwebtoken";
import { Webhook as StandardWebhook } from "standardwebhooks";
import type { Json } from "./scenario";

export interface Delivery {
  path: string;
  key: string;
  body: string;
  payload: Json;
  headers: http.IncomingHttpHeaders;
  /** which public tool verified its signature */
  verifiedBy: "hmac" | "jwt" | "standard";
}

/** How a receiver checks signatures: the organization's HMAC key and public key, a standard endpoint's secret by path. */
export interface ReceiverKeys {
  hmacKey?: string;
  publicKeyPem?: string;
  issuer?: string;
  standardSecrets: Map<string, string>;
}

/**
 * A customer's backend receiving webhooks on 127.0.0.1: it verifies every signature with public
 * tools (Node's crypto for hmac, jsonwebtoken for jwt, the Standard Webhooks library), refuses
 * (401) what does not verify, processes each unique key once (a repeated key is acknowledged and
 * counted as a duplicate), and can refuse the first attempts of a path (503) or be down.
 */
export class WebhookReceiver {
  readonly keys: ReceiverKeys = { standardSecrets: new Map() };
  /** first processing of each unique key, in arrival order */
  readonly processed: Delivery[] = [];
  readonly seen = new Set<string>();
  duplicates = 0;
  refusedSignatures = 0;
  attempts = 0;
  /** path → attempts still to refuse */
  readonly failFirst = new Map<string, number>();
  private server: http.Server | null = null;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(port = 0): Promise<void> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.attempts++;
        const path = req.url ?? "/";
        const left = this.failFirst.get(path) ?? 0;
        if (left > 0) {
          this.failFirst.set(path, left - 1);
          res.writeHead(503).end("try again later");
          return;
        }
        const body = Buffer.concat(chunks).toString("utf8");
        const verifiedBy = this.verify(path, body, req.headers);
        if (!verifiedBy) {
          this.refusedSignatures++;
          res.writeHead(401).end("bad signature");
          return;
        }
        const key = String(req.headers["x-lago-unique-key"]);
        if (this.seen.has(key)) this.duplicates++;
        else {
          this.seen.add(key);
          this.processed.push({ path, key, body, payload: JSON.parse(body) as Json, headers: req.headers, verifiedBy });
        }
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Down: connections are refused until `start(receiver.port)` again. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }

  at(path: string): Delivery[] {
    return this.processed.filter((d) => d.path === path);
  }

  private verify(path: string, body: string, headers: http.IncomingHttpHeaders): Delivery["verifiedBy"] | null {
    try {
      if (headers["webhook-signature"]) {
        const secret = this.keys.standardSecrets.get(path);
        if (!secret) return null;
        new StandardWebhook(secret).verify(body, headers as Record<string, string>);
        return "standard";
      }
      const signature = String(headers["x-lago-signature"] ?? "");
      if (headers["x-lago-signature-algorithm"] === "hmac") {
        return this.keys.hmacKey && createHmac("sha256", this.keys.hmacKey).update(body).digest("base64") === signature
          ? "hmac"
          : null;
      }
      if (headers["x-lago-signature-algorithm"] === "jwt" && this.keys.publicKeyPem) {
        const claims = jwt.verify(signature, this.keys.publicKeyPem, {
          algorithms: ["RS256"],
          issuer: this.keys.issuer,
        }) as { data?: string };
        return claims.data === body ? "jwt" : null;
      }
      return null;
    } catch {
      return null;
    }
  }
}
