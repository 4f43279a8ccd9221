#!/usr/bin/env node
// The promises of deploy/helm/values-production.yaml, checked on its render (deploy/check.sh):
//   node deploy/check-render.mjs rendered.yaml
// Every Deployment: 2+ replicas, CPU and memory requests and limits, readiness and liveness probes
// (native gRPC for the backend services, /health for the gateway), a PodDisruptionBudget and a
// NetworkPolicy selecting it. MongoDB and NATS external, their URLs from Secrets, 3 stream
// replicas. Only the gateway reachable from outside: every backend admits only the release's
// gateway and backend pods on its gRPC port; only the payment service may reach the internet.
// Every pod's /metrics on a metrics port of its own (the gateway's too), which no public Service
// (the gateway's, an Ingress's backend) carries; the gateway limits failed authentications.
// Prints one line per problem and exits 1, or prints a one-line summary.
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";

const file = process.argv[2];
if (!file) throw new Error("usage: check-render.mjs rendered.yaml");
const objects = parseAllDocuments(readFileSync(file, "utf8"))
  .map((d) => d.toJS())
  .filter(Boolean);
const problems = [];
const expect = (ok, problem) => ok || problems.push(problem);
const ofKind = (kind) => objects.filter((o) => o.kind === kind);
const component = (o) => o.metadata.labels?.["app.kubernetes.io/component"];
const selects = (selector, labels) =>
  Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
  (selector.matchExpressions ?? []).every((e) => e.operator === "In" && e.values.includes(labels[e.key]));

const BACKENDS = ["customer", "catalog", "usage", "invoicing", "wallet", "payment"];
const deployments = ofKind("Deployment");
const pdbs = ofKind("PodDisruptionBudget");
const policies = ofKind("NetworkPolicy");
const configMap = ofKind("ConfigMap").find((c) => c.metadata.name.endsWith("-env"));

expect(deployments.length === 7, `7 Deployments expected, ${deployments.length} rendered`);
expect(ofKind("StatefulSet").length === 0, "NATS is external: no StatefulSet expected");
expect(ofKind("Secret").length === 0, "MongoDB's URL comes from an existing Secret: the chart renders none");
expect(configMap?.data?.JETSTREAM_REPLICAS === "3", "JETSTREAM_REPLICAS must be 3");
expect(configMap && !("NATS_URL" in configMap.data), "NATS_URL comes from a Secret, not the ConfigMap");
for (const svc of ofKind("Service"))
  expect(svc.spec.type === "ClusterIP", `Service ${svc.metadata.name} is ${svc.spec.type}: only the Ingress is public`);
for (const ing of ofKind("Ingress")) {
  const backends = ing.spec.rules.flatMap((r) => r.http.paths.map((p) => p.backend.service.name));
  expect(
    backends.every((b) => b.endsWith("-gateway")),
    `Ingress ${ing.metadata.name} routes to ${backends} (gateway only)`,
  );
}

for (const d of deployments) {
  const name = component(d);
  const labels = d.spec.template.metadata.labels;
  const c = d.spec.template.spec.containers[0];
  expect(d.spec.replicas >= 2, `${name}: ${d.spec.replicas} replica(s), 2+ expected`);
  for (const k of ["requests", "limits"])
    for (const r of ["cpu", "memory"]) expect(c.resources?.[k]?.[r], `${name}: no ${k}.${r}`);
  for (const probe of ["readinessProbe", "livenessProbe", "startupProbe"]) {
    const p = c[probe];
    if (name === "gateway") expect(p?.httpGet?.path === "/health", `${name}: ${probe} is not GET /health`);
    else expect(p?.grpc?.port === c.ports[0].containerPort, `${name}: ${probe} is not gRPC health on its port`);
  }
  expect(
    pdbs.some((p) => selects(p.spec.selector, labels)),
    `${name}: no PodDisruptionBudget`,
  );
  expect(d.spec.template.spec.affinity?.podAntiAffinity, `${name}: replicas not spread over nodes`);
  // Prometheus: every pod says where its /metrics is (its METRICS_PORT; the gateway's apart from its HTTP port)
  const env = Object.fromEntries(c.env.map((e) => [e.name, e]));
  const annotations = d.spec.template.metadata.annotations ?? {};
  const metricsPort = c.ports.find((p) => p.name === "metrics")?.containerPort;
  expect(
    metricsPort && env.METRICS_PORT?.value === String(metricsPort) && metricsPort !== c.ports[0].containerPort,
    `${name}: no metrics container port matching METRICS_PORT, apart from its main port`,
  );
  expect(
    annotations["prometheus.io/scrape"] === "true" &&
      annotations["prometheus.io/port"] === String(metricsPort) &&
      annotations["prometheus.io/path"] === "/metrics",
    `${name}: no Prometheus scrape annotations for port ${metricsPort}`,
  );
  if (name === "gateway") {
    expect(
      Number(env.RATE_LIMIT_PER_S?.value) > 0 && Number(env.RATE_LIMIT_BURST?.value) > 0,
      "gateway: no per-organization rate limit (RATE_LIMIT_PER_S, RATE_LIMIT_BURST)",
    );
    expect(
      Number(env.AUTH_FAILURE_LIMIT?.value) > 0 && Number(env.API_KEY_MISS_TTL_MS?.value) > 0,
      "gateway: failed authentications not limited (AUTH_FAILURE_LIMIT, API_KEY_MISS_TTL_MS)",
    );
    expect(
      env.METRICS_HOST?.value === "0.0.0.0",
      "gateway: METRICS_HOST must be 0.0.0.0 for Prometheus to reach its metrics port",
    );
    // the public Service (the one an Ingress routes to) carries the HTTP port only
    const publicService = ofKind("Service").find((s) => s.metadata.name === d.metadata.name);
    expect(
      publicService &&
        publicService.spec.ports.every(
          (p) => p.targetPort !== "metrics" && p.targetPort !== metricsPort && p.port !== metricsPort,
        ),
      "gateway: its public Service exposes the metrics port",
    );
    expect(
      ofKind("Service").some(
        (s) =>
          s.metadata.name !== d.metadata.name &&
          selects({ matchLabels: s.spec.selector }, labels) &&
          s.spec.ports.some((p) => p.name === "metrics"),
      ),
      "gateway: no Service for its metrics port",
    );
  }
  if (name === "gateway" || name === "invoicing") {
    expect(
      env.DOCUMENT_LINK_SECRET?.valueFrom?.secretKeyRef?.name === "billing-document-links",
      `${name}: DOCUMENT_LINK_SECRET not from Secret billing-document-links`,
    );
  }
  if (name === "invoicing")
    expect(
      env.PUBLIC_API_URL?.value === "https://billing.example.com/api/v1",
      "invoicing: PUBLIC_API_URL (the file_url base) not set",
    );
  if (name !== "gateway") {
    expect(
      env.MONGO_URL?.valueFrom?.secretKeyRef?.name === "billing-mongo",
      `${name}: MONGO_URL not from Secret billing-mongo`,
    );
    expect(
      env.NATS_URL?.valueFrom?.secretKeyRef?.name === "billing-nats",
      `${name}: NATS_URL not from Secret billing-nats`,
    );
  }
  const mine = policies.filter((p) => selects(p.spec.podSelector, labels));
  expect(mine.length === 1, `${name}: ${mine.length} NetworkPolicies select it, 1 expected`);
  const policy = mine[0];
  if (!policy) continue;
  expect(
    policy.spec.policyTypes.includes("Ingress") && policy.spec.policyTypes.includes("Egress"),
    `${name}: policy must restrict ingress and egress`,
  );
  const port = c.ports[0].containerPort;
  for (const rule of policy.spec.ingress ?? []) {
    // the metrics port: only to named peers (networkPolicy.metricsFrom)
    if (rule.ports?.length > 0 && rule.ports.every((p) => p.port === metricsPort)) {
      expect((rule.from ?? []).length > 0, `${name}: its metrics port is open to anyone`);
      continue;
    }
    expect(
      rule.ports?.length > 0 && rule.ports.every((p) => p.port === port),
      `${name}: ingress rule opens ports other than ${port}`,
    );
    if (name === "gateway") continue;
    // a backend: only pods of this release (gateway and backend components), no namespaces or CIDRs
    const ok =
      (rule.from ?? []).length > 0 &&
      rule.from.every(
        (f) =>
          f.podSelector &&
          !f.namespaceSelector &&
          !f.ipBlock &&
          f.podSelector.matchLabels?.["app.kubernetes.io/instance"] === labels["app.kubernetes.io/instance"] &&
          f.podSelector.matchExpressions?.every(
            (e) =>
              e.key === "app.kubernetes.io/component" && e.values.every((v) => v === "gateway" || BACKENDS.includes(v)),
          ),
      );
    expect(ok, `${name}: admits more than the release's gateway and backend services`);
  }
  if (name === "gateway") {
    expect(
      (policy.spec.ingress ?? []).some((r) => r.ports?.some((p) => p.port === port)),
      "gateway: its HTTP port is not reachable",
    );
  }
  // egress: only the payment service may reach arbitrary addresses (webhooks), the others name ports
  const open = (policy.spec.egress ?? []).filter((r) => !r.ports?.length);
  if (name === "payment") {
    expect(
      open.some((r) => r.to?.some((t) => t.ipBlock?.cidr === "0.0.0.0/0")),
      "payment: no egress to the internet for webhooks",
    );
  } else {
    expect(open.length === 0, `${name}: an egress rule without ports`);
  }
  const egressPorts = new Set((policy.spec.egress ?? []).flatMap((r) => (r.ports ?? []).map((p) => p.port)));
  if (name !== "gateway")
    for (const p of [53, 27017, 4222]) expect(egressPorts.has(p), `${name}: no egress to port ${p}`);
  for (const peer of BACKENDS.filter((b) => b !== name)) {
    const peerPort = deployments.find((x) => component(x) === peer)?.spec.template.spec.containers[0].ports[0]
      .containerPort;
    expect(egressPorts.has(peerPort), `${name}: cannot call ${peer} (${peerPort})`);
  }
}

if (problems.length) {
  for (const p of problems) console.log(p);
  process.exit(1);
}
const replicas = deployments.map((d) => `${component(d)} ${d.spec.replicas}`).join(", ");
console.log(
  `${deployments.length} Deployments (${replicas}) with requests/limits, probes, metrics ports (the gateway's off its public Service) and scrape annotations (gateway rate-limited, failed authentications limited), PDB, anti-affinity and one NetworkPolicy each; only the gateway admits outside traffic, only payment reaches the internet; MongoDB/NATS and the document link secret (invoicing, gateway) from Secrets, JETSTREAM_REPLICAS=3`,
);
