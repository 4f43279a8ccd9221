import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020";
import {
  backendServiceSchema,
  GATEWAY_METRICS_PORT,
  GRPC_PORTS,
  METRICS_PORTS,
  type BackendService,
} from "@billing/config";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { z } from "zod";
import { catalogConfigSchema } from "../../services/catalog/src/config";
import { customerConfigSchema } from "../../services/customer/src/config";
import { gatewayConfigSchema } from "../../services/gateway/src/config";
import { invoicingConfigSchema } from "../../services/invoicing/src/config";
import { paymentConfigSchema } from "../../services/payment/src/config";
import { usageConfigSchema } from "../../services/usage/src/config";
import { walletConfigSchema } from "../../services/wallet/src/config";

// deploy/docker-compose.yml against the Compose Specification's JSON schema (vendored from the Go
// module github.com/compose-spec/compose-go/v2, the loader docker compose itself uses; see
// deploy/compose-spec/NOTICE.md), and against what the services read: each one's environment is
// parsed with that service's own settings schema, as it is at start-up.

const root = fileURLToPath(new URL("../../", import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, "utf8");

// docker-compose.yml as parsed: the Compose Specification's schema (checked below) is its type; the
// checks walk it freely
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Service = Record<string, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Compose = { services: Record<string, Service>; volumes?: Record<string, unknown> } & Record<string, any>;

/** Compose's variable interpolation, with nothing set: `${VAR:-default}`, `${VAR-default}`, `${VAR}`, `$VAR`, `$$`. */
function interpolate<T>(value: T, env: Record<string, string> = {}): T {
  if (typeof value === "string") {
    return value.replace(
      /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (all, name?: string, op?: string, arg?: string, bare?: string) => {
        if (all === "$$") return "$";
        const key = (name ?? bare)!;
        const set = key in env && (op?.startsWith(":") ? env[key] !== "" : true);
        if (!op) return env[key] ?? "";
        if (op.endsWith("-")) return set ? env[key]! : arg!;
        if (op.endsWith("+")) return set ? arg! : "";
        if (!set) throw new Error(`${key} is required: ${arg}`);
        return env[key]!;
      },
    ) as T;
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)])) as T;
  }
  return value;
}

const raw = read("deploy/docker-compose.yml");
/** The secrets the file requires (no defaults): what deploy/.env holds once generated. */
const SECRETS = { DOCUMENT_LINK_SECRET: "0123456789abcdef0123456789abcdef", DEV_API_KEY: "sk_0123456789abcdef" };
// YAML merge keys (`<<: *app`) resolved as docker compose resolves them
const parsed = () => parse(raw, { merge: true }) as Compose;
const compose = interpolate(parsed(), SECRETS);
const schema = JSON.parse(read("deploy/compose-spec/compose-spec.json"));
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validate = ajv.compile(schema);
const errorsOf = (doc: unknown) =>
  validate(doc) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);

const BACKENDS = Object.keys(GRPC_PORTS) as BackendService[];
const OWN_SETTINGS: Record<BackendService, z.ZodObject> = {
  customer: customerConfigSchema,
  catalog: catalogConfigSchema,
  usage: usageConfigSchema,
  invoicing: invoicingConfigSchema,
  wallet: walletConfigSchema,
  payment: paymentConfigSchema,
};
const settingsOf = (service: BackendService) =>
  backendServiceSchema(service, GRPC_PORTS[service]).extend(OWN_SETTINGS[service].shape);
const conditionOf = (service: Service, on: string) => service.depends_on?.[on]?.condition;
const commandText = (service: Service) => [service.command ?? []].flat().join(" ");
const volumeTargets = (service: Service) =>
  (service.volumes ?? []).map((v: string | { target: string }) => (typeof v === "string" ? v.split(":")[1] : v.target));

/** Expects an environment to hold only settings the service reads, each valid, and returns it parsed. */
function expectReadable(name: string, settings: z.ZodObject, environment: Record<string, unknown>) {
  const env = Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, String(v)]));
  const unknown = Object.keys(env).filter((key) => !(key in settings.shape));
  expect(unknown, `${name}: variables the service does not read`).toEqual([]);
  const parsed = settings.safeParse(env);
  expect(parsed.success ? [] : parsed.error.issues.map((i) => `${name}: ${i.path.join(".")}: ${i.message}`)).toEqual(
    [],
  );
  return parsed.data as Record<string, unknown>;
}

describe("deploy/docker-compose.yml", () => {
  it("is valid against the Compose Specification's JSON schema", () => {
    expect(errorsOf(compose)).toEqual([]);
  });

  it("is checked for real: the schema refuses a misspelt key, a wrong type and an unknown condition", () => {
    const broken = structuredClone(compose);
    const { gateway, nats, usage } = broken.services as Record<string, Service>;
    gateway!.helthcheck = gateway!.healthcheck;
    nats!.healthcheck.retries = { times: 20 };
    usage!.depends_on.mongo.condition = "service_ready";
    const errors = errorsOf(broken).join("\n");
    expect(errors).toMatch(/helthcheck/);
    expect(errors).toMatch(/\/services\/nats\/healthcheck\/retries/);
    expect(errors).toMatch(/\/services\/usage\/depends_on\/mongo\/condition/);
  });

  it("runs MongoDB 7 as a replica set, initiated once before any service starts", () => {
    const { mongo, "mongo-init": init } = compose.services;
    expect(mongo!.image).toBe("mongo:7");
    expect(mongo!.command).toEqual(expect.arrayContaining(["--replSet", "rs0"]));
    expect([mongo!.healthcheck.test].flat().join(" ")).toMatch(/mongosh .*ping/);
    expect(volumeTargets(mongo!)).toContain("/data/db");

    expect(init!.image).toBe("mongo:7");
    expect(init!.restart).toBe("no");
    expect(conditionOf(init!, "mongo")).toBe("service_healthy");
    const script = commandText(init!);
    expect(script).toContain(`rs.initiate({ _id: "rs0", members: [{ _id: 0, host: "mongo:27017" }] })`);
    expect(script).toMatch(/NotYetInitialized/); // a second run finds it initiated and changes nothing
    expect(script).toMatch(/isWritablePrimary/); // and exits 0 only once there is a primary

    for (const [name, service] of Object.entries(compose.services)) {
      const url = service.environment?.MONGO_URL as string | undefined;
      if (!url) continue;
      expect(new URL(url).searchParams.get("replicaSet"), `${name}'s MONGO_URL`).toBe("rs0");
      if (name !== "create-org")
        expect(conditionOf(service, "mongo-init"), name).toBe("service_completed_successfully");
    }
  });

  it("runs NATS 2 with JetStream stored in a volume, healthy only once JetStream is", () => {
    const { nats } = compose.services;
    expect(nats!.image).toMatch(/^nats:2(-alpine)?$/);
    expect(nats!.command).toContain("-js");
    const storeDir = nats!.command[nats!.command.indexOf("-sd") + 1];
    expect(storeDir).toBe("/data");
    const volume = (nats!.volumes as string[]).find((v) => v.split(":")[1] === storeDir)!;
    expect(Object.keys(compose.volumes ?? {})).toContain(volume.split(":")[0]);
    expect([nats!.healthcheck.test].flat().join(" ")).toContain("/healthz?js-enabled-only=true");
  });

  it("runs every backend service on its README port, with its gRPC health check, database and peers", () => {
    const readme = read("README.md");
    for (const name of BACKENDS) {
      const port = GRPC_PORTS[name];
      const service = compose.services[name]!;
      expect(readme, `README's table lists ${name} on ${port}`).toMatch(
        // cells padded to the column's width (Prettier aligns the table)
        new RegExp(`^\\| ${name} +\\|.*\\| ${port} +\\|`, "m"),
      );
      expect(service.command).toEqual(["node", `services/${name}/dist/main.js`]);
      // gRPC, and /metrics on the service's own METRICS_PORT, labelled for Prometheus' Docker discovery
      expect(service.expose).toEqual([String(port), String(METRICS_PORTS[name])]);
      expect(service.labels).toEqual({
        "prometheus.io/scrape": "true",
        "prometheus.io/path": "/metrics",
        "prometheus.io/port": String(METRICS_PORTS[name]),
      });
      expect([service.healthcheck?.test].flat()).toEqual(["CMD", "node", "deploy/healthcheck.cjs", "grpc"]);
      for (const infra of ["mongo", "nats"])
        expect(conditionOf(service, infra), `${name} waits for ${infra}`).toBe("service_healthy");
      expect(service.ports, `${name} is published`).toBeUndefined();

      const config = expectReadable(name, settingsOf(name), service.environment);
      expect(config).toMatchObject({
        GRPC_HOST: "0.0.0.0",
        GRPC_PORT: port,
        METRICS_PORT: METRICS_PORTS[name],
        MONGO_DB: `billing_${name}`,
        NATS_URL: "nats://nats:4222",
        JETSTREAM_REPLICAS: 1,
      });
      expect(config.METRICS_HOST ?? config.GRPC_HOST, `${name}'s /metrics listens beyond the container`).toBe(
        "0.0.0.0",
      );
      for (const peer of BACKENDS)
        expect(config[`${peer.toUpperCase()}_GRPC_ADDR`]).toBe(`${peer}:${GRPC_PORTS[peer]}`);
    }
  });

  it("publishes only the gateway, on the loopback interface unless GATEWAY_BIND says otherwise, and starts it once every backend service is healthy", () => {
    const { gateway } = compose.services;
    expect(gateway!.ports).toEqual(["127.0.0.1:3000:3000"]);
    expect(interpolate(parsed().services.gateway!.ports, { GATEWAY_BIND: "0.0.0.0", GATEWAY_PORT: "8080" })).toEqual([
      "0.0.0.0:8080:3000",
    ]);
    expect([gateway!.healthcheck?.test].flat()).toEqual(["CMD", "node", "deploy/healthcheck.cjs", "http"]);
    for (const name of BACKENDS)
      expect(conditionOf(gateway!, name), `gateway waits for ${name}`).toBe("service_healthy");
    const config = expectReadable("gateway", gatewayConfigSchema, gateway!.environment);
    expect(config.PORT).toBe(3000);
    // its rate limit is set here, at the gateway's own defaults unless the environment says otherwise
    expect({ perSecond: config.RATE_LIMIT_PER_S, burst: config.RATE_LIMIT_BURST }).toEqual({
      perSecond: 100,
      burst: 200,
    });
    expect(
      expectReadable(
        "gateway",
        gatewayConfigSchema,
        interpolate(parsed().services.gateway!.environment, { ...SECRETS, RATE_LIMIT_PER_S: "0" }),
      ).RATE_LIMIT_PER_S,
    ).toBe(0);
    // failed authentications are limited per client address, misses cached
    expect({
      limit: config.AUTH_FAILURE_LIMIT,
      windowMs: config.AUTH_FAILURE_WINDOW_MS,
      missTtlMs: config.API_KEY_MISS_TTL_MS,
    }).toEqual({ limit: 20, windowMs: 60_000, missTtlMs: 5000 });
    // /metrics on its own port, on the compose network only (exposed, not published; the public port answers it 404)
    expect({ host: config.METRICS_HOST, port: config.METRICS_PORT }).toEqual({
      host: "0.0.0.0",
      port: GATEWAY_METRICS_PORT,
    });
    expect(gateway!.expose).toEqual([String(GATEWAY_METRICS_PORT)]);
    expect(gateway!.ports.some((p: string) => p.endsWith(`:${GATEWAY_METRICS_PORT}`))).toBe(false);
    expect(gateway!.labels).toEqual({
      "prometheus.io/scrape": "true",
      "prometheus.io/path": "/metrics",
      "prometheus.io/port": String(GATEWAY_METRICS_PORT),
    });
    for (const peer of BACKENDS) expect(config[`${peer.toUpperCase()}_GRPC_ADDR`]).toBe(`${peer}:${GRPC_PORTS[peer]}`);
    // the signed file_url links: invoicing signs, the gateway checks, with one secret
    const invoicing = expectReadable("invoicing", settingsOf("invoicing"), compose.services.invoicing!.environment);
    expect(config.DOCUMENT_LINK_SECRET).toEqual(expect.any(String));
    expect(invoicing.DOCUMENT_LINK_SECRET).toBe(config.DOCUMENT_LINK_SECRET);
    expect(invoicing.PUBLIC_API_URL).toBe("http://127.0.0.1:3000/api/v1");
    const published = Object.entries(compose.services)
      .filter(([, s]) => s.ports)
      .map(([name]) => name);
    expect(published).toEqual(["gateway"]);
  });

  it("ships no known secret: DOCUMENT_LINK_SECRET and DEV_API_KEY have no default, and compose refuses to start without them", () => {
    expect(raw).not.toMatch(/change_me|sk_dev_/);
    const uses = [...raw.matchAll(/\$\{(DOCUMENT_LINK_SECRET|DEV_API_KEY)(:?[-+?])?/g)];
    expect(uses.map((m) => m[1]).sort()).toEqual(["DEV_API_KEY", "DOCUMENT_LINK_SECRET", "DOCUMENT_LINK_SECRET"]);
    for (const m of uses) expect(m[2], `${m[0]}: required, without a default`).toBe(":?");
    expect(() => interpolate(parsed())).toThrow(/DOCUMENT_LINK_SECRET is required: .*deploy\/\.env/);
    expect(() => interpolate(parsed(), { DOCUMENT_LINK_SECRET: SECRETS.DOCUMENT_LINK_SECRET })).toThrow(
      /DEV_API_KEY is required/,
    );
    expect(commandText(compose.services["create-org"]!)).toContain(`--api-key ${SECRETS.DEV_API_KEY}`);
  });

  it("documents a command that generates the secrets once, into deploy/.env, as the services accept them", () => {
    const readme = read("deploy/README.md");
    const command = readme
      .split("\n")
      .find((line) => line.includes("> deploy/.env") && line.includes("openssl rand"))
      ?.trim();
    expect(command, "deploy/README.md: the command writing deploy/.env").toBeDefined();
    expect(raw, "the compose file repeats it").toContain(command!);
    const dir = mkdtempSync(join(tmpdir(), "compose-secrets-"));
    try {
      mkdirSync(join(dir, "deploy"));
      execFileSync("bash", ["-c", command!], { cwd: dir });
      const first = readFileSync(join(dir, "deploy/.env"), "utf8");
      // once: a second run keeps the secrets (links already issued and the key keep working)
      execFileSync("bash", ["-c", command!], { cwd: dir });
      expect(readFileSync(join(dir, "deploy/.env"), "utf8")).toBe(first);
      const env = Object.fromEntries(
        readFileSync(join(dir, "deploy/.env"), "utf8")
          .trim()
          .split("\n")
          .map((line) => line.split("=", 2) as [string, string]),
      );
      expect(Object.keys(env).sort()).toEqual(["DEV_API_KEY", "DOCUMENT_LINK_SECRET"]);
      expect(env.DOCUMENT_LINK_SECRET).toMatch(/^[0-9a-f]{64}$/);
      expect(env.DEV_API_KEY).toMatch(/^sk_[0-9a-f]{48}$/);
      const generated = interpolate(parsed(), env);
      expect(
        expectReadable("gateway", gatewayConfigSchema, generated.services.gateway!.environment).DOCUMENT_LINK_SECRET,
      ).toBe(env.DOCUMENT_LINK_SECRET);
      expect(
        expectReadable("invoicing", settingsOf("invoicing"), generated.services.invoicing!.environment)
          .DOCUMENT_LINK_SECRET,
      ).toBe(env.DOCUMENT_LINK_SECRET);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("binds every published port to the loopback interface by default", () => {
    const published = Object.entries(compose.services).flatMap(([name, s]) =>
      (s.ports ?? []).map((p: string | { host_ip?: string }) => [name, p] as const),
    );
    expect(published.length).toBeGreaterThan(0);
    for (const [name, port] of published) {
      const hostIp =
        typeof port === "string" ? (port.split(":").length === 3 ? port.split(":")[0] : undefined) : port.host_ip;
      expect(hostIp, `${name} publishes ${JSON.stringify(port)} beyond 127.0.0.1`).toBe("127.0.0.1");
    }
  });

  it("gives create-org the customer service's database, and refers only to declared services and volumes", () => {
    const createOrg = compose.services["create-org"]!;
    expect(createOrg.profiles).toEqual(["setup"]);
    expect(expectReadable("create-org", settingsOf("customer"), createOrg.environment)).toMatchObject({
      MONGO_DB: "billing_customer",
    });
    for (const [name, service] of Object.entries(compose.services)) {
      for (const dependency of Object.keys(service.depends_on ?? {}))
        expect(compose.services, `${name} depends on ${dependency}`).toHaveProperty([dependency]);
      for (const volume of service.volumes ?? []) {
        const source = typeof volume === "string" ? volume.split(":")[0] : volume.source;
        if (!source.startsWith(".")) expect(compose.volumes, `${name}'s volume ${source}`).toHaveProperty([source]);
      }
    }
  });

  it("interpolates variables as docker compose does", () => {
    expect(interpolate("${A:-x} ${B-y} ${C} $$D $E", { A: "", B: "", E: "e" })).toBe("x   $D e");
    expect(interpolate("${GATEWAY_PORT:-3000}:3000", { GATEWAY_PORT: "8080" })).toBe("8080:3000");
    expect(() => interpolate("${NEEDED:?set it}")).toThrow(/NEEDED is required/);
  });
});
