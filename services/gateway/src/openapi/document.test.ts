import { readdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import express, { type Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerInputSchema } from "../routes/customers/validators";
import { planCreateSchema } from "../routes/plans/validators";
import { subscriptionCreateSchema } from "../routes/subscriptions/validators";
import { healthRouter } from "../routes/health";
import { openApiDocument } from "./document";
import { OPERATIONS } from "./operations";
import { docsRouter } from "./serve";

const { document, json } = openApiDocument();
type Schema = Record<string, unknown>;
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** `METHOD /path` of every operation, as express writes paths (`:name`), /api/v1 included unless served at the root. */
const documented = new Set(
  Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item?.[m]).map((m) => {
      const outside = (item![m]!.servers ?? []).some((s) => s.url === "/");
      return `${m.toUpperCase()} ${outside ? "" : "/api/v1"}${path.replace(/\{([^}]+)\}/g, ":$1")}`;
    }),
  ),
);

/** `METHOD /path` of every route of an express router, nested routers included. */
function routesOf(router: Router, prefix: string): string[] {
  type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };
  return (router.stack as unknown as Layer[]).flatMap((layer) => {
    if (layer.route)
      return Object.keys(layer.route.methods).map((m) => `${m.toUpperCase()} ${prefix}${layer.route!.path}`);
    return layer.handle?.stack ? routesOf(layer.handle as unknown as Router, prefix) : [];
  });
}

/** A client stub for building routers: routers only keep it. */
const stub: unknown = new Proxy(() => undefined, { get: (_target, key) => (key === "then" ? undefined : stub) });

/** Every route the express app serves: the /api/v1 routers (one folder each under routes/), health and the docs (metrics are on METRICS_PORT, not here). */
async function servedRoutes(): Promise<string[]> {
  const routesDir = join(__dirname, "..", "routes");
  const routes: string[] = [];
  for (const folder of readdirSync(routesDir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    if (folder.name === "events" || folder.name === "estimate-fees") continue; // the fast path, not express (covered end to end)
    const module = (await import(join(routesDir, folder.name, "route.ts"))) as Record<string, unknown>;
    for (const [name, factory] of Object.entries(module)) {
      if (name.endsWith("Router") && typeof factory === "function")
        routes.push(...routesOf(factory(stub) as Router, "/api/v1"));
    }
  }
  routes.push(...routesOf(healthRouter({}), ""));
  // the viewer's page (/docs redirects to /docs/, its script and assets are the page's)
  routes.push(...routesOf(docsRouter(), "").filter((r) => r !== "GET /docs" && r !== "GET /docs/init.js"));
  return routes;
}

describe("the OpenAPI document", () => {
  it("documents every route the gateway serves, and only those", async () => {
    const served = new Set(await servedRoutes());
    const events = ["POST /api/v1/events", "POST /api/v1/events/batch", "POST /api/v1/events/estimate_fees"];
    expect(
      [...served].filter((r) => !documented.has(r)),
      "served, not documented",
    ).toEqual([]);
    expect(
      [...documented].filter((r) => !served.has(r) && !events.includes(r)),
      "documented, not served",
    ).toEqual([]);
    expect(documented.size).toBe(OPERATIONS.length);
  });

  it("is OpenAPI 3.1 with unique operation ids, Lago's error answers and every $ref resolving", () => {
    expect(document.openapi).toBe("3.1.0");
    const ids = OPERATIONS.map((op) => op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const op of OPERATIONS) {
      const operation = document.paths![op.path]![op.method]!;
      expect(Object.keys(operation.responses ?? {}), op.operationId).toEqual(
        op.public
          ? ["200", ...(op.refuses ? ["403", "404", "default"] : [])]
          : ["200", ...(op.body ? ["400"] : []), "401", "404", "422", "default"],
      );
      expect(operation.security, op.operationId).toEqual(op.public ? [] : undefined);
    }
    const refs = [...json.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.filter((name) => !document.components?.schemas?.[name])).toEqual([]);
  });

  it("has schemas a JSON Schema 2020-12 validator compiles (strict), formats included", () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    ajv.addVocabulary(["components"]); // the wrapper the component schemas are read from
    ajv.addSchema({ $id: "doc", components: document.components } as Schema);
    for (const name of Object.keys(document.components?.schemas ?? {}))
      expect(ajv.getSchema(`doc#/components/schemas/${name}`), name).toBeTypeOf("function");
  });

  it("describes the request bodies as their validators take them", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: "doc", components: document.components } as Schema);
    const bodyOf = (path: string, method: "post" | "put") => {
      const schema = JSON.parse(
        JSON.stringify(
          (document.paths![path]![method]!.requestBody as { content: Record<string, { schema: Schema }> }).content[
            "application/json"
          ]!.schema,
        ).replace(/"#\/components/g, '"doc#/components'),
      );
      return ajv.compile(schema);
    };
    const samples: Array<
      [string, "post" | "put", string, Schema, { safeParse: (v: unknown) => { success: boolean } }]
    > = [
      [
        "/customers",
        "post",
        "customer",
        {
          external_id: "c1",
          name: "Acme",
          currency: "EUR",
          country: "FR",
          billing_configuration: { payment_provider: "sandbox" },
          metadata: [{ key: "k", value: "v", display_in_invoice: true }],
        },
        customerInputSchema,
      ],
      [
        "/plans",
        "post",
        "plan",
        {
          name: "P",
          code: "p",
          interval: "monthly",
          amount_cents: 1000,
          amount_currency: "EUR",
          pay_in_advance: false,
          charges: [{ billable_metric_id: "m", charge_model: "standard", properties: { amount: "1" } }],
        },
        planCreateSchema,
      ],
      [
        "/subscriptions",
        "post",
        "subscription",
        {
          external_customer_id: "c1",
          plan_code: "p",
          external_id: "s1",
          billing_time: "calendar",
          subscription_at: "2024-01-01T00:00:00Z",
        },
        subscriptionCreateSchema,
      ],
      ["/customers", "post", "customer", { name: "no external_id" }, customerInputSchema],
      [
        "/plans",
        "post",
        "plan",
        { name: "P", code: "p", interval: "daily", amount_cents: 1000, amount_currency: "EUR", pay_in_advance: false },
        planCreateSchema,
      ],
    ];
    for (const [path, method, root, body, validator] of samples) {
      const validate = bodyOf(path, method);
      expect(validate({ [root]: body }), `${path} ${JSON.stringify(body)}: ${JSON.stringify(validate.errors)}`).toBe(
        validator.safeParse(body).success,
      );
    }
  });
});

describe("GET /api/v1/openapi.json and /docs", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.use(docsRouter());
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("serves the document without an API key", async () => {
    const res = await fetch(`${base}/api/v1/openapi.json`);
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "application/json; charset=utf-8"]);
    expect(await res.json()).toEqual(document);
  });

  it("serves the viewer and its assets from our dependency, nothing else", async () => {
    const redirect = await fetch(`${base}/docs`, { redirect: "manual" });
    expect([redirect.status, redirect.headers.get("location")]).toEqual([301, "/docs/"]);
    const page = await fetch(`${base}/docs/`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<script src="swagger-ui-bundle.js">');
    expect(html).not.toMatch(/https?:\/\//); // no CDN
    for (const asset of ["swagger-ui-bundle.js", "swagger-ui.css", "init.js"])
      expect((await fetch(`${base}/docs/${asset}`)).status, asset).toBe(200);
    expect(await (await fetch(`${base}/docs/init.js`)).text()).toContain('url: "../api/v1/openapi.json"');
    for (const other of ["index.html", "swagger-initializer.js", "package.json", "../package.json"])
      expect((await fetch(`${base}/docs/${other}`)).status, other).toBe(404);
  });
});
