import { describe, expect, it } from "vitest";
import { jsonTextDeeperThan, MAX_BODY_DEPTH } from "./json-depth";

const nestedText = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const bytes = (text: string) => Buffer.from(text);

describe("JSON nesting limits", () => {
  it("are 64 levels for a body (an event's properties: @billing/contracts' event-limits test)", () => {
    expect(MAX_BODY_DEPTH).toBe(64);
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
});
