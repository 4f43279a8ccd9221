import mongoose, { Schema, type Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectMongo,
  docModel,
  initModels,
  isDuplicateKeyError,
  takeNextInSequence,
  type SequenceDoc,
} from "@billing/mongo";
import { infraUrls, uniqueName, dropTestDatabase } from "@billing/testkit";

// Proves the MongoDB server under test serves what our code relies on (mongo-compat.md).
let conn: Connection;
interface ItemDoc {
  _id: string;
  org: string;
  key: string;
  n: number;
  group?: string;
}
const Item = new Schema<ItemDoc>(
  { _id: String, org: String, key: String, n: Number, group: String },
  { versionKey: false },
).index({ org: 1, key: 1 }, { unique: true });

beforeAll(async () => {
  conn = await connectMongo({ url: infraUrls().mongoUrl, dbName: uniqueName("compat") });
  conn.model("Item", Item);
  await initModels(conn);
});

afterAll(async () => {
  await dropTestDatabase(conn);
  await conn.close();
});

const items = () => conn.model<ItemDoc>("Item");

describe("MongoDB server compatibility", () => {
  it("rejects a duplicate on a unique index with code 11000", async () => {
    await items().create({ _id: "a", org: "o", key: "x", n: 1, group: "g1" });
    const err = await items()
      .create({ _id: "b", org: "o", key: "x", n: 2 })
      .catch((e: unknown) => e);
    expect(isDuplicateKeyError(err)).toBe(true);
  });

  it("upserts with findOneAndUpdate", async () => {
    const doc = await items()
      .findOneAndUpdate(
        { org: "o", key: "y" },
        { $set: { n: 5, group: "g1" }, $setOnInsert: { _id: "c" } },
        { upsert: true, new: true },
      )
      .lean();
    expect(doc).toMatchObject({ _id: "c", key: "y", n: 5 });
  });

  it("inserts the rest of an unordered insertMany and reports the duplicate by index", async () => {
    const raw = conn.collection("items");
    const err = (await raw
      .insertMany(
        [
          { _id: "d", org: "o", key: "z", n: 2, group: "g2" },
          { _id: "e", org: "o", key: "x", n: 3 },
          { _id: "f", org: "o", key: "w", n: 4, group: "g2" },
        ] as never[],
        { ordered: false },
      )
      .catch((e: unknown) => e)) as { writeErrors: Array<{ index: number; code: number }> };
    expect(err.writeErrors.map((w) => [w.index, w.code])).toEqual([[1, 11000]]);
    expect(await items().countDocuments({ org: "o" })).toBe(4);
  });

  it("increments atomically under concurrency", async () => {
    await Promise.all(Array.from({ length: 50 }, () => items().updateOne({ _id: "a" }, { $inc: { n: 1 } })));
    expect((await items().findById("a").lean<{ n: number }>())?.n).toBe(51);
  });

  it("hands out each number of a sequence once, however many callers race for it", async () => {
    // findOneAndUpdate($inc, new) is not enough here: the test server re-reads the document after
    // the update, so two racing callers can both be told the later value.
    const Counter = docModel(
      conn,
      "Counter",
      new Schema<SequenceDoc>({ _id: String, seq: Number }, { versionKey: false }),
    );
    const taken = await Promise.all(Array.from({ length: 100 }, () => takeNextInSequence(Counter, "org:customers")));
    expect([...taken].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it("guards a conditional update", async () => {
    const taken = await items()
      .findOneAndUpdate({ _id: "c", n: { $gte: 5 } }, { $inc: { n: -5 } }, { new: true })
      .lean();
    const refused = await items()
      .findOneAndUpdate({ _id: "c", n: { $gte: 5 } }, { $inc: { n: -5 } }, { new: true })
      .lean();
    expect([taken?.n, refused]).toEqual([0, null]);
  });

  it("groups with $sum, $max and $count-by-sum", async () => {
    const rows = await items().aggregate([
      { $match: { org: "o" } },
      { $group: { _id: "$group", total: { $sum: "$n" }, count: { $sum: 1 }, max: { $max: "$n" } } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: "g1", total: 51, count: 2, max: 51 },
      { _id: "g2", total: 6, count: 2, max: 4 },
    ]);
  });

  it("keeps keys with dots and dollars only when stored as key/value pairs", async () => {
    const Props = conn.model(
      "Props",
      new Schema(
        { _id: String, properties: [{ _id: false, key: String, value: Schema.Types.Mixed }] },
        { versionKey: false },
      ),
    );
    await Props.create({
      _id: "p",
      properties: [
        { key: "a.b", value: 1 },
        { key: "$c", value: "x" },
      ],
    });
    expect((await Props.findById("p").lean<{ properties: unknown[] }>())?.properties).toEqual([
      { key: "a.b", value: 1 },
      { key: "$c", value: "x" },
    ]);
  });

  it("is reached through mongoose 8", () => {
    expect(mongoose.version.split(".")[0]).toBe("8");
  });
});

// What the usage service's storage relies on (services/usage/src/store, persistence).
describe("MongoDB server compatibility: usage buckets", () => {
  type Decimal = mongoose.mongo.Decimal128;
  // a bucket's sums under f.<key>, its page ranges, and the hours of a series
  type Bucket = {
    _id: string;
    seq?: number;
    n?: number;
    pg?: string[];
    hours?: number[];
    f?: Record<string, { s?: Decimal; c?: number; m?: Decimal }>;
  };
  const raw = () => conn.collection<Bucket>("buckets");
  const D = (s: string) => mongoose.mongo.Decimal128.fromString(s);

  it("adds and maximises Decimal128 exactly, on fields created by the update", async () => {
    await raw().insertOne({ _id: "b1", seq: 1, f: {} });
    await raw().updateOne({ _id: "b1" }, { $inc: { "f.k.s": D("0.1"), "f.k.c": 1 }, $max: { "f.k.m": D("2.5") } });
    await raw().updateOne({ _id: "b1" }, { $inc: { "f.k.s": D("0.2"), "f.k.c": 1 }, $max: { "f.k.m": D("-7") } });
    await raw().updateOne(
      { _id: "b1" },
      { $inc: { "f.k.s": D("12345678901234567890.123456789") }, $max: { "f.k.m": D("10") } },
    );
    const f = ((await raw().findOne({ _id: "b1" })) as unknown as { f: { k: { s: unknown; c: number; m: unknown } } }).f
      .k;
    expect([String(f.s), f.c, String(f.m)]).toEqual(["12345678901234567890.423456789", 2, "10"]);
  });

  it("applies a bulk of guarded updates and inserts, telling matches and duplicate inserts apart", async () => {
    await raw().insertOne({ _id: "b2", seq: 5, n: 1, pg: ["1-5"] });
    const fresh = await raw().bulkWrite(
      [
        {
          updateOne: {
            filter: { _id: "b2", seq: 5 },
            update: { $set: { seq: 6 }, $inc: { n: 2 }, $push: { pg: "6-6" } },
          },
        },
        { insertOne: { document: { _id: "b3", seq: 6, n: 1 } } },
      ],
      { ordered: false },
    );
    expect([fresh.matchedCount, fresh.insertedCount]).toEqual([1, 1]);
    const stale = await raw()
      .bulkWrite(
        [
          { updateOne: { filter: { _id: "b2", seq: 5 }, update: { $set: { seq: 7 }, $inc: { n: 100 } } } },
          { insertOne: { document: { _id: "b3", seq: 7, n: 100 } } },
        ],
        { ordered: false },
      )
      .catch((err: { writeErrors: unknown; result: { matchedCount: number } }) => ({
        errors: ([] as Array<{ index: number; code: number }>)
          .concat(err.writeErrors as never)
          .map((w) => [w.index, w.code]),
        matched: err.result.matchedCount,
      }));
    expect(stale).toEqual({ errors: [[1, 11000]], matched: 0 });
    expect(
      await raw()
        .find({ _id: { $in: ["b2", "b3"] } })
        .sort({ _id: 1 })
        .toArray(),
    ).toEqual([
      { _id: "b2", seq: 6, n: 3, pg: ["1-5", "6-6"] },
      { _id: "b3", seq: 6, n: 1 },
    ]);
  });

  it("adds to a set once, with an upsert", async () => {
    for (const h of [5, 5, 7]) await raw().updateOne({ _id: "series" }, { $addToSet: { hours: h } }, { upsert: true });
    expect(await raw().findOne({ _id: "series" })).toEqual({ _id: "series", hours: [5, 7] });
  });

  it("keeps the highest value with $max on an upserted cursor", async () => {
    for (const seq of [3, 9, 4]) await raw().updateOne({ _id: "cursor" }, { $max: { seq } }, { upsert: true });
    expect((await raw().findOne({ _id: "cursor" }))?.seq).toBe(9);
  });
});
