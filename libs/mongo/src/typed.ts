import type {
  Connection,
  HydratedDocument,
  Model,
  mongo,
  QueryOptions,
  QueryWithHelpers,
  Schema,
  Types,
  UpdateWriteOpResult,
} from "mongoose";

/*
 * Document types that the compiler checks in queries and writes.
 *
 * mongoose's own FilterQuery and UpdateQuery (and the driver's Filter and UpdateFilter) accept any
 * key: a misspelt field compiles and silently matches nothing, or writes a field nobody reads. The
 * types below accept only the paths of the document type: its fields, the fields of its nested
 * objects and array elements (`a.b`, `a.0.b`, `a.$.b`), and any key below a map or a free-form
 * (Mixed) field. A collection's model is registered with `docModel<XDoc>(...)`, which answers the
 * same mongoose model with its query and write methods (and those of its raw collection) declared
 * with these types.
 */

/** Values that have no paths below them. */
type Leaf =
  | string
  | number
  | boolean
  | bigint
  | symbol
  | Date
  | RegExp
  | Uint8Array
  | Types.Decimal128
  | Types.ObjectId
  | ((...args: never[]) => unknown);

/** Depth countdown: the paths of nested objects go four names deep at most (a.b.c.d), which keeps the compiler fast on large documents. */
type Prev = [never, 0, 1, 2, 3, 4];

/** The element type of an array type (never for anything else). */
export type ElementOf<V> = V extends ReadonlyArray<infer E> ? E : never;

/** Every path of a document type that a query or an update may name. */
export type DocPath<T, D extends number = 3> = [D] extends [never]
  ? never
  : T extends Leaf
    ? never
    : { [K in keyof T & string]-?: K | SubPath<T[K], K, Prev[D]> }[keyof T & string];

type SubPath<V, K extends string, D extends number> = [D] extends [never]
  ? never
  : unknown extends V
    ? `${K}.${string}` // free-form: any path below
    : NonNullable<V> extends infer W
      ? W extends Leaf
        ? never
        : W extends ReadonlyArray<infer E>
          ? `${K}.${number}` | `${K}.$` | ElementPath<E, K, D>
          : string extends keyof W
            ? `${K}.${string}` // a map: its keys are data
            : `${K}.${DocPath<W, D>}`
      : never;

type ElementPath<E, K extends string, D extends number> = unknown extends E
  ? `${K}.${string}`
  : NonNullable<E> extends Leaf
    ? never
    : | `${K}.${DocPath<NonNullable<E>, D>}`
      | `${K}.${number}.${DocPath<NonNullable<E>, D>}`
      | `${K}.$.${DocPath<NonNullable<E>, D>}`;

/** The type of the value at a path of a document type (unknown below a free-form field). */
export type PathValue<T, P extends string> = T extends unknown
  ? P extends keyof T
    ? T[P]
    : P extends `${infer K}.${infer R}`
      ? K extends keyof T
        ? ValueBelow<T[K], R>
        : never
      : never
  : never;

type ValueBelow<V, R extends string> = unknown extends V
  ? unknown
  : NonNullable<V> extends infer W
    ? W extends ReadonlyArray<infer E>
      ? R extends `${number}` | "$"
        ? E
        : R extends `${infer I}.${infer R2}`
          ? I extends `${number}` | "$"
            ? PathValue<NonNullable<E>, R2>
            : PathValue<NonNullable<E>, R>
          : PathValue<NonNullable<E>, R>
      : string extends keyof W
        ? R extends `${string}.${string}`
          ? unknown
          : W[string]
        : PathValue<W, R>
    : never;

/** What a path matches: its value, one element of an array, or null (a missing field too). */
type Matched<V> = V | ElementOf<V> | null;

/** The operators of a condition on one path. */
export interface Operators<V> {
  $eq?: Matched<V>;
  $ne?: Matched<V>;
  $gt?: NonNullable<V | ElementOf<V>>;
  $gte?: NonNullable<V | ElementOf<V>>;
  $lt?: NonNullable<V | ElementOf<V>>;
  $lte?: NonNullable<V | ElementOf<V>>;
  $in?: ReadonlyArray<Matched<V>>;
  $nin?: ReadonlyArray<Matched<V>>;
  $exists?: boolean;
  $not?: Operators<V>;
  $size?: number;
  $all?: ReadonlyArray<ElementOf<V>>;
  $elemMatch?: Filter<NonNullable<ElementOf<V>>> | Operators<ElementOf<V>>;
  $regex?: string | RegExp;
  $options?: string;
  $type?: string | number;
}

/** A condition on one path: a value to match (a regular expression for text), or operators. */
export type Condition<V> = Matched<V> | Operators<V> | (NonNullable<V> extends string ? RegExp : never);

/** A query filter that names only the document type's paths, each with a condition of its type. */
export type Filter<T> = { [P in DocPath<T>]?: Condition<PathValue<T, P>> } & {
  $and?: ReadonlyArray<Filter<T>>;
  $or?: ReadonlyArray<Filter<T>>;
  $nor?: ReadonlyArray<Filter<T>>;
};

/** Values for some of a document type's paths (what `$set` takes). */
export type DocFields<T> = { [P in DocPath<T>]?: PathValue<T, P> };
type Each<E> = { $each: ReadonlyArray<E>; $slice?: number; $position?: number };

/** An update that names only the document type's paths, each set to a value of its type. */
export interface Update<T> {
  $set?: DocFields<T>;
  $setOnInsert?: DocFields<T>;
  $min?: DocFields<T>;
  $max?: DocFields<T>;
  $unset?: { [P in DocPath<T>]?: "" | 1 | true };
  $inc?: { [P in DocPath<T>]?: number };
  $push?: {
    [P in DocPath<T>]?: ElementOf<NonNullable<PathValue<T, P>>> | Each<ElementOf<NonNullable<PathValue<T, P>>>>;
  };
  $addToSet?: {
    [P in DocPath<T>]?: ElementOf<NonNullable<PathValue<T, P>>> | Each<ElementOf<NonNullable<PathValue<T, P>>>>;
  };
  $pull?: {
    [P in DocPath<T>]?:
      Condition<ElementOf<NonNullable<PathValue<T, P>>>> | Filter<NonNullable<ElementOf<NonNullable<PathValue<T, P>>>>>;
  };
}

/** A projection that names only the document type's paths. */
export type Projection<T> = { [P in DocPath<T>]?: 0 | 1 | boolean };

/** One operation of a bulk write on documents of type T. */
export type BulkOperation<T> =
  | { insertOne: { document: T } }
  | { updateOne: { filter: Filter<T>; update: Update<T>; upsert?: boolean } }
  | { updateMany: { filter: Filter<T>; update: Update<T>; upsert?: boolean } }
  | { replaceOne: { filter: Filter<T>; replacement: Omit<T, "_id">; upsert?: boolean } }
  | { deleteOne: { filter: Filter<T> } }
  | { deleteMany: { filter: Filter<T> } };

type Hydrated<T> = HydratedDocument<T>;
// {}: mongoose's own defaults for no query helpers and no document overrides, so that Q is the type its models' queries have
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type Q<Result, T, Op> = QueryWithHelpers<Result, Hydrated<T>, {}, T, Op, {}>;

/**
 * The driver's collection of a model (`model.collection`), its writes and reads declared with the
 * document type. Used where a write must reach the server exactly as written (no casting by the
 * schema), and for `_id`-keyed conditional writes, which the test server serves by its `_id` index.
 */
export interface DocCollection<T extends { _id: unknown }> {
  readonly collectionName: string;
  insertOne(doc: T, options?: mongo.InsertOneOptions): Promise<mongo.InsertOneResult<T>>;
  insertMany(docs: readonly T[], options?: mongo.BulkWriteOptions): Promise<mongo.InsertManyResult<T>>;
  find(filter: Filter<T>, options?: mongo.FindOptions): mongo.FindCursor<T>;
  findOne(filter: Filter<T>, options?: mongo.FindOptions): Promise<T | null>;
  countDocuments(filter?: Filter<T>, options?: mongo.CountDocumentsOptions): Promise<number>;
  updateOne(filter: Filter<T>, update: Update<T>, options?: mongo.UpdateOptions): Promise<mongo.UpdateResult<T>>;
  updateMany(filter: Filter<T>, update: Update<T>, options?: mongo.UpdateOptions): Promise<mongo.UpdateResult<T>>;
  findOneAndUpdate(
    filter: Filter<T>,
    update: Update<T>,
    options: mongo.FindOneAndUpdateOptions & { includeResultMetadata?: false },
  ): Promise<T | null>;
  deleteOne(filter: Filter<T>, options?: mongo.DeleteOptions): Promise<mongo.DeleteResult>;
  deleteMany(filter: Filter<T>, options?: mongo.DeleteOptions): Promise<mongo.DeleteResult>;
  bulkWrite(
    operations: ReadonlyArray<BulkOperation<T>>,
    options?: mongo.BulkWriteOptions,
  ): Promise<mongo.BulkWriteResult>;
}

/** The query and write methods of a model, declared with its document type. */
interface DocQueries<T extends { _id: unknown }> {
  collection: DocCollection<T>;
  find(
    filter?: Filter<T>,
    projection?: Projection<T> | null,
    options?: QueryOptions<T> | null,
  ): Q<Hydrated<T>[], T, "find">;
  findOne(
    filter?: Filter<T>,
    projection?: Projection<T> | null,
    options?: QueryOptions<T> | null,
  ): Q<Hydrated<T> | null, T, "findOne">;
  findById(
    id: T["_id"],
    projection?: Projection<T> | null,
    options?: QueryOptions<T> | null,
  ): Q<Hydrated<T> | null, T, "findOne">;
  exists(filter: Filter<T>): Q<{ _id: T["_id"] } | null, T, "findOne">;
  countDocuments(filter?: Filter<T>): Q<number, T, "countDocuments">;
  distinct<P extends DocPath<T>>(
    field: P,
    filter?: Filter<T>,
  ): Q<Array<NonNullable<PathValue<T, P> extends ReadonlyArray<infer E> ? E : PathValue<T, P>>>, T, "distinct">;
  updateOne(
    filter: Filter<T>,
    update: Update<T>,
    options?: mongo.UpdateOptions | null,
  ): Q<UpdateWriteOpResult, T, "updateOne">;
  updateMany(
    filter: Filter<T>,
    update: Update<T>,
    options?: mongo.UpdateOptions | null,
  ): Q<UpdateWriteOpResult, T, "updateMany">;
  findOneAndUpdate(
    filter: Filter<T>,
    update: Update<T>,
    options?: QueryOptions<T> | null,
  ): Q<Hydrated<T> | null, T, "findOneAndUpdate">;
  /** the replacement keeps the document's `_id` */
  replaceOne(
    filter: Filter<T>,
    replacement: Omit<T, "_id">,
    options?: mongo.ReplaceOptions | null,
  ): Q<UpdateWriteOpResult, T, "replaceOne">;
  deleteOne(filter: Filter<T>): Q<mongo.DeleteResult, T, "deleteOne">;
  deleteMany(filter: Filter<T>): Q<mongo.DeleteResult, T, "deleteMany">;
  bulkWrite(
    operations: ReadonlyArray<BulkOperation<T>>,
    options?: mongo.BulkWriteOptions,
  ): Promise<mongo.BulkWriteResult>;
  insertMany(docs: readonly T[], options?: { ordered?: boolean; lean?: boolean }): Promise<unknown>;
  create(doc: T): Promise<Hydrated<T>>;
  create(docs: T[]): Promise<Hydrated<T>[]>;
}

/** A mongoose model whose queries and writes name only its document type's paths. */
export type DocModel<T extends { _id: unknown }> = Omit<Model<T>, keyof DocQueries<T>> & DocQueries<T>;

/** Where a model's documents live, and whether a model already registered under its name is answered instead. */
export interface DocModelOptions {
  /** the collection's name (by default mongoose's plural of the model's name, or the schema's `collection` option) */
  collection?: string;
  /** answer the model already registered on the connection under this name (services wired more than once on one connection) */
  reuse?: boolean;
}

/**
 * Registers a collection's model on the service's connection (`connection.model<T>(name, schema)`)
 * and answers it as a DocModel: the same object, its query and write methods declared with T.
 */
export function docModel<T extends { _id: unknown }>(
  connection: Connection,
  name: string,
  schema: Schema<T>,
  options: DocModelOptions = {},
): DocModel<T> {
  const model =
    (options.reuse ? connection.models[name] : undefined) ?? connection.model<T>(name, schema, options.collection);
  // one cast, here: mongoose's Model<T> accepts any key in its filters and updates; DocModel narrows them to T's paths
  return model as unknown as DocModel<T>;
}
