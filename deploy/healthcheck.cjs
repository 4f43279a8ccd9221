#!/usr/bin/env node
// Container health check for docker-compose (Kubernetes uses its native grpc/http probes instead).
//   node deploy/healthcheck.cjs grpc [host:port]   grpc.health.v1.Health/Check, service "" → SERVING
//   node deploy/healthcheck.cjs http [url]         2xx from the URL
// Defaults: grpc 127.0.0.1:$GRPC_PORT, http http://127.0.0.1:$PORT/health. Exit 0 healthy, 1 not.
"use strict";

const TIMEOUT_MS = Number(process.env.HEALTHCHECK_TIMEOUT_MS || 2000);
const [mode = "grpc", target] = process.argv.slice(2);

function done(ok, why) {
  if (!ok && why) console.error(`unhealthy: ${why}`);
  process.exit(ok ? 0 : 1);
}

function checkGrpc(address) {
  const grpc = require("@grpc/grpc-js");
  // HealthCheckRequest{service: ""} encodes to zero bytes; HealthCheckResponse is field 1 (varint)
  // holding the status, SERVING = 1. Hand-encoded so the check needs no .proto file.
  const Client = grpc.makeGenericClientConstructor(
    {
      Check: {
        path: "/grpc.health.v1.Health/Check",
        requestStream: false,
        responseStream: false,
        requestSerialize: () => Buffer.alloc(0),
        requestDeserialize: () => ({}),
        responseSerialize: () => Buffer.alloc(0),
        responseDeserialize: (buf) => {
          let status = 0; // UNKNOWN
          for (let i = 0; i + 1 < buf.length;) {
            const tag = buf[i++];
            if (tag !== 0x08) break;
            status = buf[i++];
          }
          return { status };
        },
      },
    },
    "Health",
  );
  const client = new Client(address, grpc.credentials.createInsecure());
  client.Check({}, { deadline: Date.now() + TIMEOUT_MS }, (err, res) => {
    client.close();
    if (err) return done(false, `${address}: ${err.message}`);
    done(res.status === 1, `${address}: status ${res.status}`);
  });
}

async function checkHttp(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    done(res.ok, `${url}: HTTP ${res.status}`);
  } catch (err) {
    done(false, `${url}: ${err.message}`);
  }
}

if (mode === "grpc") checkGrpc(target || `127.0.0.1:${process.env.GRPC_PORT || 50051}`);
else if (mode === "http") void checkHttp(target || `http://127.0.0.1:${process.env.PORT || 3000}/health`);
else done(false, `unknown mode ${mode} (grpc|http)`);
