import { describe, expect, it } from "vitest";
import { apiKeyPrefix, generateApiKey, keysMatchingPrefix, lastUseIsStale } from "./api-key";

describe("API key prefixes", () => {
  it("keeps the first 12 characters of a generated key", () => {
    const key = generateApiKey();
    expect(apiKeyPrefix(key)).toBe(key.slice(0, 12));
    expect(apiKeyPrefix(key)).toMatch(/^sk_[A-Za-z0-9_-]{9}$/);
  });

  it("never keeps more than a third of a short key chosen by hand", () => {
    expect(apiKeyPrefix("test-key")).toBe("te");
    expect(apiKeyPrefix("dev_0123456789abcdef")).toBe("dev_01");
    expect(apiKeyPrefix("ab")).toBe("");
  });

  it("names the keys whose prefix begins with the given one; keys without a prefix never match", () => {
    const keys = [
      { id: "1", prefix: "sk_abcdefghi" },
      { id: "2", prefix: "sk_abcXYZxyz" },
      { id: "3", prefix: null },
    ];
    expect(keysMatchingPrefix(keys, "sk_abcdefghi").map((k) => k.id)).toEqual(["1"]);
    expect(keysMatchingPrefix(keys, "sk_abc").map((k) => k.id)).toEqual(["1", "2"]);
    expect(keysMatchingPrefix(keys, "")).toEqual([]);
  });

  it("writes last use at most once a minute", () => {
    const at = new Date("2026-01-01T00:00:00Z");
    expect(lastUseIsStale({ last_used_at: null }, at)).toBe(true);
    expect(lastUseIsStale({ last_used_at: at }, new Date(at.getTime() + 59_999))).toBe(false);
    expect(lastUseIsStale({ last_used_at: at }, new Date(at.getTime() + 60_000))).toBe(true);
  });
});
