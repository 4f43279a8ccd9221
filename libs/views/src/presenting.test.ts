import { describe, expect, it } from "vitest";
import { presentMeta } from "./presenting";

describe("presentMeta", () => {
  it("presents an empty collection's first page as page 1 of 0, never page 0", () => {
    const empty = { current_page: 1, next_page: null, prev_page: null, total_pages: 0, total_count: 0 };
    expect(presentMeta(null)).toEqual(empty);
    expect(
      presentMeta({ current_page: 0, total_pages: 0, total_count: 0 } as Parameters<typeof presentMeta>[0]),
    ).toEqual(empty);
  });

  it("keeps a page's numbers, absent neighbours as null", () => {
    expect(
      presentMeta({ current_page: 2, prev_page: 1, total_pages: 2, total_count: 3 } as Parameters<
        typeof presentMeta
      >[0]),
    ).toEqual({
      current_page: 2,
      next_page: null,
      prev_page: 1,
      total_pages: 2,
      total_count: 3,
    });
  });
});
