import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpPoster } from "./webhook-http";

/** A receiver on this machine, which webhooks reach only when private addresses are allowed. */
let receiver: http.Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    hits++;
    req.resume().on("end", () => res.writeHead(200).end("ok"));
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  port = (receiver.address() as AddressInfo).port;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

describe("the webhook poster's address check at send time", () => {
  it("refuses an internal IP literal before connecting, in any spelling", async () => {
    const poster = httpPoster({ timeoutMs: 2000, allowPrivate: false });
    const before = hits;
    for (const url of [
      `http://127.0.0.1:${port}/x`,
      `http://2130706433:${port}/x`,
      `http://[::ffff:127.0.0.1]:${port}/x`,
      `http://[::1]:${port}/x`,
    ]) {
      const result = await poster.post(url, "{}", {});
      expect(result.status, url).toBeNull();
      expect(result.body, url).toMatch(/webhooks may not reach/);
    }
    expect(hits).toBe(before);
    poster.close();
  });

  it("refuses a host name that resolves to an internal address (the DNS lookup's check)", async () => {
    const poster = httpPoster({ timeoutMs: 2000, allowPrivate: false });
    const before = hits;
    const result = await poster.post(`http://localhost:${port}/x`, "{}", {});
    expect(result.status).toBeNull();
    expect(result.body).toMatch(/resolves to an address webhooks may not reach/);
    expect(hits).toBe(before);
    poster.close();
  });

  it("reaches the same receiver when private addresses are allowed", async () => {
    const poster = httpPoster({ timeoutMs: 2000, allowPrivate: true });
    expect(await poster.post(`http://127.0.0.1:${port}/x`, "{}", {})).toEqual({ status: 200, body: "ok" });
    expect(await poster.post(`http://localhost:${port}/x`, "{}", {})).toMatchObject({ status: 200 });
    poster.close();
  });

  it("answers an unparsable URL without throwing", async () => {
    const poster = httpPoster({ timeoutMs: 2000, allowPrivate: false });
    expect(await poster.post("not a url", "{}", {})).toEqual({ status: null, body: "invalid url" });
    poster.close();
  });
});
