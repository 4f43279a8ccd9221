import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, waitFor } from "@billing/testkit";
import { api } from "../support/api";
import { startE2E, type E2E } from "../support/platform";

const TTL_MS = 500;
let e2e: E2E;

beforeAll(async () => {
  // the gateway caches a key's organization this long: a revoked key works at most this much longer
  e2e = await startE2E("api_keys", { API_KEY_CACHE_TTL_MS: String(TTL_MS) });
});

afterAll(async () => {
  await e2e?.stop();
});

/** `npm run org:key -- <args>`, on this platform's customer database. */
function orgKey(...args: string[]) {
  const out = spawnSync(process.execPath, [join(repoRoot(), "services/customer/dist/cli/api-keys.js"), ...args], {
    env: { ...process.env, MONGO_URL: e2e.mongoUrl, MONGO_DB: e2e.platform.env.customer.MONGO_DB },
    encoding: "utf8",
  });
  return {
    status: out.status,
    stdout: out.stdout,
    stderr: out.stderr,
    json: () => JSON.parse(out.stdout.trim().split("\n").pop()!),
  };
}

describe("several API keys per organization (npm run org:key)", () => {
  it("adds a key, lists it by prefix, revokes it: 401 within the cache TTL while the first key keeps working", async () => {
    const org = await e2e.organization("Two keys");
    const other = await e2e.organization("Bystander");
    const first = api(e2e.platform.baseUrl, org.api_key);

    const created = orgKey("create", "--organization", org.organization_id, "--name", "ci", "--json");
    expect(created.status).toBe(0);
    const key = created.json();
    expect(key).toMatchObject({
      organization_id: org.organization_id,
      name: "ci",
      prefix: key.api_key.slice(0, 12),
      revoked_at: null,
    });
    const second = api(e2e.platform.baseUrl, key.api_key);
    expect((await second("POST", "/customers", { customer: { external_id: "c1" } })).status).toBe(200);
    expect((await first("GET", "/customers/c1")).status).toBe(200);

    const listed = orgKey("list", "--organization", org.organization_id, "--json").json().api_keys;
    expect(listed.map((k: { prefix: string }) => k.prefix)).toEqual([org.api_key.slice(0, 12), key.prefix]);
    expect(listed[1].last_used_at).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(key.api_key);
    // the human listing shows prefixes, never keys
    const table = orgKey("list", "--organization", org.organization_id);
    expect(table.stdout).toContain(key.prefix);
    expect(table.stdout).not.toContain(key.api_key);

    // another organization cannot revoke it
    const foreign = orgKey("revoke", "--organization", other.organization_id, "--key-prefix", key.prefix);
    expect(foreign.status).toBe(1);
    expect(foreign.stderr).toContain("has no API key");

    const revoked = orgKey("revoke", "--organization", org.organization_id, "--key-prefix", key.prefix, "--json");
    expect(revoked.status).toBe(0);
    expect(revoked.json()).toMatchObject({ id: key.id, already_revoked: false });
    const revokedAt = Date.now();
    await waitFor(async () => (await second("GET", "/customers/c1")).status === 401, {
      what: "the revoked key refused",
      timeoutMs: TTL_MS + 5_000,
    });
    expect(Date.now() - revokedAt).toBeLessThan(TTL_MS + 2_000);
    expect(await second("GET", "/customers")).toEqual({ status: 401, body: { status: 401, error: "Unauthorized" } });
    // the organization's first key and another organization's key still work
    expect((await first("GET", "/customers/c1")).status).toBe(200);
    expect((await api(e2e.platform.baseUrl, other.api_key)("GET", "/customers")).status).toBe(200);

    const after = orgKey("list", "--organization", org.organization_id, "--json").json().api_keys;
    expect(after.map((k: { revoked_at: string | null }) => k.revoked_at !== null)).toEqual([false, true]);
  });

  it("answers --help, and a usage error with exit code 2", () => {
    const help = orgKey("--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("revoke --organization <id>");
    expect(orgKey("revoke", "--organization", "x").status).toBe(2);
    expect(orgKey("list").status).toBe(2);
    expect(orgKey("create", "--organization", "no-such-org").status).toBe(1);
  });
});
