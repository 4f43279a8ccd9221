import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

/**
 * Checks answers against OUR OpenAPI document, as the gateway under test serves it
 * (GET /api/v1/openapi.json, fetched once per gateway): the operation's schema for the answer's
 * status (its `default` for an error status it does not list). Objects are held to exactly the
 * keys the document lists (`additionalProperties: false` is added here, not in the published
 * document, which stays open to additions), so a key the server sends and the document does not
 * name fails too. Each answer's validator is compiled once.
 */
type Schema = Record<string, unknown>;
interface Response {
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  operationId: string;
  servers?: Array<{ url: string }>;
  responses: Record<string, Response>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export interface OurOpenApi {
  /** Mismatches of an answer to `METHOD path` (relative to /api/v1); empty when it agrees with the document. */
  errors(method: string, path: string, status: number, body: unknown): string[];
}

const mapValues = (o: Record<string, unknown>, f: (v: unknown) => unknown) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));

/** The schema with every object closed to the properties it lists (allOf members stay open: their union is what counts). */
function closed(schema: unknown, open = false): unknown {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const out: Schema = { ...(schema as Schema) };
  if (out.properties) out.properties = mapValues(out.properties as Schema, (s) => closed(s));
  if (out.items) out.items = closed(out.items);
  if (out.additionalProperties && typeof out.additionalProperties === "object")
    out.additionalProperties = closed(out.additionalProperties);
  for (const key of ["anyOf", "oneOf"])
    if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map((s) => closed(s));
  if (Array.isArray(out.allOf)) out.allOf = out.allOf.map((s) => closed(s, true));
  if (!open && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

function checker(document: Document): OurOpenApi {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "ours", components: { schemas: mapValues(document.components.schemas, (s) => closed(s)) } });
  const templates = Object.entries(document.paths)
    .filter(([, item]) => !Object.values(item).some((op) => op.servers?.some((s) => s.url === "/"))) // /health, /docs/: not under /api/v1
    .map(([template]) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`) }))
    // a literal segment (/webhooks/hmac_key) wins over a parameter (/webhooks/{id})
    .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  const compiled = new Map<string, ValidateFunction | "text" | "none">();

  return {
    errors(method, path, status, body) {
      const m = method.toLowerCase();
      const match = templates.find(({ pattern, template }) => pattern.test(path) && document.paths[template]![m]);
      if (!match) return [`${method} ${path} is not an operation of our OpenAPI document`];
      const operation = document.paths[match.template]![m]!;
      const statusKey = operation.responses[String(status)]
        ? String(status)
        : status >= 400 && operation.responses.default
          ? "default"
          : undefined;
      if (!statusKey) return [`${operation.operationId} does not document status ${status}`];
      const key = `${m} ${match.template} ${statusKey}`;
      let validate = compiled.get(key);
      if (!validate) {
        const content = operation.responses[statusKey]!.content ?? {};
        const schema = content["application/json"]?.schema;
        validate = schema
          ? ajv.compile(JSON.parse(JSON.stringify(closed(schema)).replace(/"#\/components\//g, '"ours#/components/')))
          : content["text/plain"]
            ? "text"
            : "none";
        compiled.set(key, validate);
      }
      if (validate === "text")
        return typeof body === "string" ? [] : [`${operation.operationId} → ${status}: text expected`];
      if (validate === "none")
        return body === undefined ? [] : [`${operation.operationId} → ${status}: no body documented`];
      return validate(body)
        ? []
        : (validate.errors ?? []).map(
            (e) =>
              `${operation.operationId} → ${statusKey}: ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`,
          );
    },
  };
}

const documents = new Map<string, Promise<OurOpenApi>>();

/** The checker of the gateway at `baseUrl` (e.g. http://127.0.0.1:3000): its document fetched once. */
export function ourOpenApi(baseUrl: string): Promise<OurOpenApi> {
  let pending = documents.get(baseUrl);
  if (!pending) {
    pending = fetch(`${baseUrl}/api/v1/openapi.json`).then(async (res) => {
      if (res.status !== 200)
        throw new Error(`GET ${baseUrl}/api/v1/openapi.json → ${res.status}: ${await res.text()}`);
      return checker((await res.json()) as Document);
    });
    pending.catch(() => documents.delete(baseUrl));
    documents.set(baseUrl, pending);
  }
  return pending;
}
