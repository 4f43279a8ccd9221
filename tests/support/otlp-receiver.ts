import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

/** One span as an OTLP receiver got it, flattened: its service (resource) and attributes as plain values. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer */
  kind: number;
  attributes: Record<string, unknown>;
}

export const SpanKind = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value?: AnyValue };

const plain = (v: AnyValue | undefined): unknown =>
  v === undefined
    ? undefined
    : (v.stringValue ??
      (v.intValue !== undefined ? Number(v.intValue) : undefined) ??
      v.doubleValue ??
      v.boolValue ??
      v.arrayValue?.values?.map(plain));
const attributesOf = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, plain(kv.value)]));

/**
 * An OpenTelemetry collector in the test process: OTLP/HTTP with the JSON encoding
 * (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) on `POST /v1/traces`, keeping every span it receives.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  requests = 0;
  private server: http.Server | null = null;
  private port = 0;

  /** What OTEL_EXPORTER_OTLP_ENDPOINT names (the exporter appends /v1/traces). */
  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        if (req.method !== "POST" || req.url !== "/v1/traces") {
          res.writeHead(404).end();
          return;
        }
        try {
          const raw = Buffer.concat(chunks);
          const body = JSON.parse(
            (req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8"),
          );
          this.requests++;
          for (const rs of body.resourceSpans ?? []) {
            const service = String(attributesOf(rs.resource?.attributes)["service.name"] ?? "");
            for (const ss of rs.scopeSpans ?? []) {
              for (const s of ss.spans ?? []) {
                this.spans.push({
                  service,
                  traceId: s.traceId,
                  spanId: s.spanId,
                  parentSpanId: s.parentSpanId || undefined,
                  name: s.name,
                  kind: s.kind,
                  attributes: attributesOf(s.attributes),
                });
              }
            }
          }
          res.writeHead(200, { "content-type": "application/json" }).end("{}");
        } catch {
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
