import { describe, expect, it } from "vitest";
import { MAX_PROPERTIES_DEPTH, nestedDeeperThan } from "./event-limits";

const nestedText = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

describe("event properties' nesting", () => {
  it("is limited to 32 levels", () => {
    expect(MAX_PROPERTIES_DEPTH).toBe(32);
  });

  it("is measured on a parsed value by levels of objects and arrays, without recursing past the limit", () => {
    expect(nestedDeeperThan(1, 0)).toBe(false);
    expect(nestedDeeperThan({}, 1)).toBe(false);
    expect(nestedDeeperThan({}, 0)).toBe(true);
    expect(nestedDeeperThan({ a: 1, b: [1, "x"] }, 2)).toBe(false);
    expect(nestedDeeperThan({ a: 1, b: [1, { c: null }] }, 2)).toBe(true);
    expect(nestedDeeperThan(JSON.parse(nestedText(32)), 32)).toBe(false);
    expect(nestedDeeperThan(JSON.parse(nestedText(200_000)), 32)).toBe(true);
  });
});
