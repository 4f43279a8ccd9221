import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadPackageDefinition, type GrpcObject, type ServiceClientConstructor } from "@grpc/grpc-js";
import { loadSync, type Options } from "@grpc/proto-loader";

/** Finds the repository's `proto/` folder (or PROTO_DIR), wherever the compiled code runs from. */
export function protoRoot(): string {
  if (process.env.PROTO_DIR) return process.env.PROTO_DIR;
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "proto", "billing"))) return join(dir, "proto");
  }
  throw new Error("proto/ folder not found; set PROTO_DIR");
}

/** The one set of proto-loader options every server and client uses. */
export const PROTO_LOADER_OPTIONS: Options = {
  keepCase: true, // field names stay snake_case, as in the HTTP API
  longs: Number, // int64 cents stay within Number.MAX_SAFE_INTEGER by validation
  enums: String,
  defaults: true,
  arrays: true,
  objects: true,
  oneofs: true,
};

const cache = new Map<string, GrpcObject>();

/** Loads one proto file (path relative to proto/, e.g. "billing/customer/v1/customer.proto"). */
export function loadProto(file: string): GrpcObject {
  let loaded = cache.get(file);
  if (!loaded) {
    const root = protoRoot();
    loaded = loadPackageDefinition(loadSync(join(root, file), { ...PROTO_LOADER_OPTIONS, includeDirs: [root] }));
    cache.set(file, loaded);
  }
  return loaded;
}

/** The client constructor (which also carries the service definition) of the service a ref names. */
export function loadService(ref: { file: string; name: string }): ServiceClientConstructor {
  let node: unknown = loadProto(ref.file);
  for (const part of ref.name.split(".")) node = (node as Record<string, unknown>)?.[part];
  if (typeof node !== "function" || !("service" in node))
    throw new Error(`service ${ref.name} not found in ${ref.file}`);
  return node as ServiceClientConstructor;
}
