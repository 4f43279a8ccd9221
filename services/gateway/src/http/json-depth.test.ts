import { describe, expect, it } from "vitest";
import { jsonTextDeeperThan, MAX_BODY_DEPTH, MAX_PROPERTIES_DEPTH, nestedDeeperThan } from "./json-depth";

const nestedText = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const bytes = (text: string) => Buffer.from(text);

describe("JSON nesting limits", () => {
  it("are 64 levels for a body and 32 for an event's properties", () => {
    expect(MAX_BODY_DEPTH).toBe(64);
    expect(MAX_PROPERTIES_DEPTH).toBe(32);
  });

  it("count objects and arrays in JSON text, up to the limit included", () => {
    expect(jsonTextDeeperThan(bytes(nestedText(64)), 64)).toBe(false);
    expect(jsonTextDeeperThan(bytes(nestedText(65)), 64)).toBe(true);
    expect(jsonTextDeeperThan(bytes(nestedText(100_000)), 64)).toBe(true);
    expect(jsonTextDeeperThan(bytes(`${"[".repeat(3)}${"]".repeat(3)}`), 2)).toBe(true);
    expect(jsonTextDeeperThan(bytes('{"a":[1,{"b":2}],"c":{"d":[]}}'), 3)).toBe(false);
    expect(jsonTextDeeperThan(bytes('{"a":[1,{"b":2}],"c":{"d":[]}}'), 2)).toBe(true);
    expect(jsonTextDeeperThan(bytes(""), 0)).toBe(false);
  });

  it("ignore brackets inside strings, escaped quotes included", () => {
    expect(jsonTextDeeperThan(bytes(`{"a":"${"[{".repeat(1000)}"}`), 1)).toBe(false);
    expect(jsonTextDeeperThan(bytes(`{"a":"\\"[[[[","b":"\\\\"}`), 1)).toBe(false);
    expect(jsonTextDeeperThan(bytes(`{"a\\"{{":"x\\\\","b":{"c":{}}}`), 2)).toBe(true);
  });

  it("measure a parsed value by levels of objects and arrays, without recursing past the limit", () => {
    expect(nestedDeeperThan(1, 0)).toBe(false);
    expect(nestedDeeperThan({}, 1)).toBe(false);
    expect(nestedDeeperThan({}, 0)).toBe(true);
    expect(nestedDeeperThan({ a: 1, b: [1, "x"] }, 2)).toBe(false);
    expect(nestedDeeperThan({ a: 1, b: [1, { c: null }] }, 2)).toBe(true);
    expect(nestedDeeperThan(JSON.parse(nestedText(32)), 32)).toBe(false);
    expect(nestedDeeperThan(JSON.parse(nestedText(200_000)), 32)).toBe(true);
  });
});
