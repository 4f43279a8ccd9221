import { describe, expect, it } from "vitest";
import { pageMeta, pageRequestOf, skipOf } from "./pagination";

describe("pageMeta", () => {
  it("answers page 1 of 0 for an empty collection, as Lago does", () => {
    expect(pageMeta(0, { page: 1, perPage: 20 })).toEqual({
      current_page: 1,
      next_page: null,
      prev_page: null,
      total_pages: 0,
      total_count: 0,
    });
    expect(pageMeta(0, { page: 3, perPage: 20 })).toEqual({
      current_page: 3,
      next_page: null,
      prev_page: null,
      total_pages: 0,
      total_count: 0,
    });
  });

  it("links neighbouring pages", () => {
    expect(pageMeta(45, { page: 2, perPage: 20 })).toEqual({
      current_page: 2,
      next_page: 3,
      prev_page: 1,
      total_pages: 3,
      total_count: 45,
    });
    expect(pageMeta(45, { page: 3, perPage: 20 }).next_page).toBeNull();
    expect(pageMeta(45, { page: 1, perPage: 20 }).prev_page).toBeNull();
  });

  it("skips whole pages", () => {
    expect(skipOf({ page: 3, perPage: 25 })).toBe(50);
  });
  it("has no previous page past the last one, like Lago's paginator", () => {
    expect(pageMeta(3, { page: 5, perPage: 2 })).toEqual({
      current_page: 5,
      next_page: null,
      prev_page: null,
      total_pages: 2,
      total_count: 3,
    });
  });
});

describe("pageRequestOf", () => {
  it("takes Lago's defaults for an absent or zero page", () => {
    expect(pageRequestOf({})).toEqual({ page: 1, perPage: 100 });
    expect(pageRequestOf({ page: { page: 0, per_page: 0 } })).toEqual({ page: 1, perPage: 100 });
  });
  it("caps per_page at 1000", () => {
    expect(pageRequestOf({ page: { page: 3, per_page: 5000 } })).toEqual({ page: 3, perPage: 1000 });
  });
});
