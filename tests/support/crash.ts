import { ok, type Api, type Json } from "./scenario";

/** Runs `work(0)` … `work(count − 1)`, `size` at a time (the crash tests' loads). */
export async function inBatches(count: number, size: number, work: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < count; i += size) await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, k) => work(i + k)));
}

/** Every item of a list endpoint (`key` in its body), page after page of 1000. */
export async function allOf(call: Api, path: string, key: string): Promise<Json[]> {
  const items: Json[] = [];
  for (let page = 1; ; page++) {
    const res = await ok(call("GET", `${path}${path.includes("?") ? "&" : "?"}per_page=1000&page=${page}`));
    items.push(...res[key]);
    if (!res.meta.next_page) return items;
  }
}
