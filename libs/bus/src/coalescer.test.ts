import { describe, expect, it } from "vitest";
import { Coalescer } from "./coalescer";

const deferred = () => {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

describe("Coalescer", () => {
  it("runs at once, then merges every request arriving during a run into ONE next run, answered by it", async () => {
    const runs: string[][] = [];
    const gates: Array<ReturnType<typeof deferred>> = [];
    const run = (items: string[]) => {
      runs.push(items);
      const gate = deferred();
      gates.push(gate);
      return gate.promise;
    };
    const c = new Coalescer();
    const answered: string[] = [];
    const first = c.request("org", ["a"], run).then(() => answered.push("first"));
    const second = c.request("org", ["b", "c"], run).then(() => answered.push("second"));
    const third = c.request("org", ["c", "d"], run).then(() => answered.push("third"));
    expect(runs).toEqual([["a"]]);
    gates[0]!.resolve();
    await first;
    // the first run's end answered only the first request; the others ride the second run
    expect(answered).toEqual(["first"]);
    expect(runs).toEqual([["a"], ["b", "c", "d"]]);
    gates[1]!.resolve();
    await Promise.all([second, third]);
    expect(answered).toEqual(["first", "second", "third"]);
  });

  it("runs keys independently, and a failed run fails the requests it answered only", async () => {
    const c = new Coalescer();
    const gate = deferred();
    const failing = c.request("org_1", ["a"], () => gate.promise);
    const other = c.request("org_2", ["b"], async () => undefined);
    await expect(other).resolves.toBeUndefined();
    gate.reject(new Error("usage service unavailable"));
    await expect(failing).rejects.toThrow("usage service unavailable");
    // the key is free again after a failure
    const runs: string[][] = [];
    await c.request("org_1", ["a"], async (items) => void runs.push(items));
    expect(runs).toEqual([["a"]]);
  });
});
