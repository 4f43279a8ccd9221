import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import jwt from "jsonwebtoken";
import type { Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Subjects } from "@billing/bus";
import { ManualClock } from "@billing/clock";
import { domainEvent } from "@billing/contracts";
import { silentLogger } from "@billing/logger";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName, waitFor, dropTestDatabase } from "@billing/testkit";
import { webhookEventsOf, type ObjectRef } from "../src/domain/webhook-events";
import type { WebhookObjects } from "../src/peers/webhook-objects";
import { createWebhookEndpoint } from "../src/use-cases/webhooks/create-webhook-endpoint";
import { fanOutEvent } from "../src/use-cases/webhooks/fan-out-event";
import { getWebhookPublicKey } from "../src/use-cases/webhooks/get-webhook-keys";
import { rotateWebhookKey } from "../src/use-cases/webhooks/rotate-webhook-key";
import { wireWebhooks, type WebhookWiring } from "../src/wiring";

/**
 * jwt webhook keys on the real MongoDB server: one RSA key pair per organization, made on first
 * need and shared by replicas, served as that organization's public key, rotated by the operator
 * command; every token carries iat, exp and its organization. Two replicas (two connections) run
 * side by side; a local receiver collects what they send.
 */
const dbName = uniqueName("webhook_keys");
const clock = new ManualClock(new Date("2024-02-01T00:00:00Z"));
const ISSUER = "https://billing.example.com";
const KEY_CACHE_MS = 300;
const JWT_TTL_S = 120;
const root = fileURLToPath(new URL("../../../", import.meta.url));

interface Received {
  body: string;
  token: string;
  path: string;
}
const received: Received[] = [];
let receiver: http.Server;
let base: string;
const connections: Connection[] = [];
let replicas: WebhookWiring[];

const objects: WebhookObjects = {
  render: async (org: string, ref: ObjectRef) =>
    ref.kind === "customer" ? { external_id: ref.externalId, organization: org } : null,
  close: () => undefined,
};

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        token: String(req.headers["x-lago-signature"]),
        path: req.url ?? "/",
      });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  for (let i = 0; i < 2; i++) connections.push(await connectMongo({ url: infraUrls().mongoUrl, dbName }));
  replicas = connections.map((c, i) =>
    wireWebhooks(c, {
      clock,
      objects,
      logger: silentLogger,
      issuer: ISSUER,
      allowPrivate: true,
      timeoutMs: 2000,
      jwt: { ttlS: JWT_TTL_S, keyCacheMs: KEY_CACHE_MS },
      settings: {
        owner: `replica-${i}`,
        leaseMs: 400,
        endpointConcurrency: 4,
        maxInFlight: 64,
        maxQueuedPerEndpoint: 1000,
        retryScale: 0.002,
      },
    }),
  );
  await initModels(connections[0]!);
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.dispatcher.stop()));
  replicas.forEach((r) => r.poster.close());
  await dropTestDatabase(connections[0]);
  await Promise.all(connections.map((c) => c.close()));
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

const keyDocs = () => connections[0]!.collection<{ _id: string; kid: string }>("webhook_keys");
const publicPem = async (w: WebhookWiring, org: string) =>
  Buffer.from(await getWebhookPublicKey(w.deps, org), "base64").toString("utf8");
let seq = 0;
/** A customer.updated event of `org`, fanned out by replica `w`; answers what its jwt endpoint at `path` received. */
async function deliver(w: WebhookWiring, org: string, path: string): Promise<Received> {
  const envelope = domainEvent(Subjects.customer.customerUpdated, {
    organizationId: org,
    occurredAt: clock.now(),
    data: {
      customer: {
        svc_id: `svc-${seq}`,
        external_id: `c-${seq}`,
        sequential_id: 1,
        created_at: clock.now().toISOString(),
        updated_at: clock.now().toISOString(),
      },
    },
  });
  const before = received.filter((r) => r.path === path).length;
  await fanOutEvent(w.deps, {
    organizationId: org,
    eventId: envelope.id,
    event: webhookEventsOf(envelope.type, envelope.data)[0]!,
    seq: ++seq,
  });
  return waitFor(() => received.filter((r) => r.path === path)[before], { what: `a delivery at ${path}` });
}
const verifies = (token: string, pem: string) => {
  try {
    jwt.verify(token, pem, { algorithms: ["RS256"], issuer: ISSUER });
    return true;
  } catch {
    return false;
  }
};

describe("jwt webhook keys", () => {
  const orgA = randomUUID();
  const orgB = randomUUID();

  it("gives each organization its own key pair, made once even when replicas race for it", async () => {
    const [a0, a1, b0, b1] = await Promise.all([
      publicPem(replicas[0]!, orgA),
      publicPem(replicas[1]!, orgA),
      publicPem(replicas[0]!, orgB),
      publicPem(replicas[1]!, orgB),
    ]);
    expect(a0).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(a1).toBe(a0);
    expect(b1).toBe(b0);
    expect(b0).not.toBe(a0);
    expect(await keyDocs().countDocuments({ _id: { $in: [`rsa:${orgA}`, `rsa:${orgB}`] } })).toBe(2);
  });

  it("signs an organization's deliveries with its own key: iat, exp, organization_id and kid in the token, refused by another organization's key", async () => {
    for (const org of [orgA, orgB])
      await createWebhookEndpoint(replicas[0]!.deps, org, {
        webhook_url: `${base}/${org}`,
        signature_algo: "jwt",
        event_types: null,
      });
    const [pemA, pemB] = [await publicPem(replicas[0]!, orgA), await publicPem(replicas[0]!, orgB)];
    const a = await deliver(replicas[0]!, orgA, `/${orgA}`);
    const b = await deliver(replicas[1]!, orgB, `/${orgB}`);
    expect(verifies(a.token, pemA)).toBe(true);
    expect(verifies(a.token, pemB)).toBe(false);
    expect(verifies(b.token, pemB)).toBe(true);
    expect(verifies(b.token, pemA)).toBe(false);

    const claims = jwt.verify(a.token, pemA, { algorithms: ["RS256"] }) as jwt.JwtPayload;
    expect(claims).toEqual({
      data: a.body,
      iss: ISSUER,
      organization_id: orgA,
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
    // iat is the attempt's system time (not the organization's clock, 2024 here), exp JWT_TTL_S later
    expect(Math.abs(claims.iat! - Date.now() / 1000)).toBeLessThan(30);
    expect(claims.exp! - claims.iat!).toBe(JWT_TTL_S);
    const stored = await keyDocs().findOne({ _id: `rsa:${orgA}` });
    expect(jwt.decode(a.token, { complete: true })!.header).toEqual({ alg: "RS256", kid: stored!.kid });
    expect(JSON.parse(a.body)).toMatchObject({ webhook_type: "customer.updated", organization_id: orgA });
  });

  it("rotates an organization's key: the new public key is served at once, every replica signs with it within the cache time, the other organization keeps its own", async () => {
    const [oldA, oldB] = [await publicPem(replicas[1]!, orgA), await publicPem(replicas[1]!, orgB)];
    await deliver(replicas[1]!, orgA, `/${orgA}`); // replica 1 has orgA's old pair cached

    const rotated = await rotateWebhookKey(replicas[0]!.deps, orgA);
    expect(rotated.version).toBe(2);
    const newA = Buffer.from(rotated.public_key, "base64").toString("utf8");
    expect(newA).not.toBe(oldA);
    expect(await publicPem(replicas[1]!, orgA)).toBe(newA);
    expect(await publicPem(replicas[1]!, orgB)).toBe(oldB);

    // the replica that rotated signs with the new key at once; the other within KEY_CACHE_MS
    const now = await deliver(replicas[0]!, orgA, `/${orgA}`);
    expect(verifies(now.token, newA)).toBe(true);
    expect(verifies(now.token, oldA)).toBe(false);
    await new Promise((r) => setTimeout(r, KEY_CACHE_MS + 50));
    const later = await deliver(replicas[1]!, orgA, `/${orgA}`);
    expect(verifies(later.token, newA)).toBe(true);
    expect(jwt.decode(later.token, { complete: true })!.header.kid).toBe(rotated.kid);
    expect(verifies((await deliver(replicas[1]!, orgB, `/${orgB}`)).token, oldB)).toBe(true);
  });

  it("lets one of two racing rotations win, both answering the pair stored", async () => {
    const [x, y] = await Promise.all([
      rotateWebhookKey(replicas[0]!.deps, orgB),
      rotateWebhookKey(replicas[1]!.deps, orgB),
    ]);
    expect(x.version).toBe(2);
    expect(y).toEqual(x);
    expect(Buffer.from(await getWebhookPublicKey(replicas[0]!.deps, orgB), "base64").toString("base64")).toBe(
      x.public_key,
    );
  });

  it("rotates from the operator command (npm run webhook:rotate-key), which prints the new key as JSON", async () => {
    const before = await publicPem(replicas[0]!, orgA);
    const { stdout } = await promisify(execFile)(
      join(root, "node_modules/.bin/tsx"),
      [join(root, "services/payment/src/cli/rotate-webhook-key.ts"), "--organization", orgA, "--json"],
      {
        cwd: root,
        env: { ...process.env, MONGO_URL: infraUrls().mongoUrl, MONGO_DB: dbName, LOG_LEVEL: "silent" },
        timeout: 60_000,
      },
    );
    const printed = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
      organization_id: string;
      kid: string;
      version: number;
      public_key: string;
    };
    expect(printed).toMatchObject({ organization_id: orgA, version: 3, kid: expect.any(String) });
    const after = await publicPem(replicas[0]!, orgA);
    expect(after).not.toBe(before);
    expect(Buffer.from(after).toString("base64")).toBe(printed.public_key);
  });
});
