// The yardstick, run as its own process: the same 300-byte events published straight to JetStream
// with nats.js, one message each, async acks (a window of publishes in flight). Prints one JSON line.
import { createRequire } from "node:module";
import { rawPayload } from "./events.mjs";

const require = createRequire(import.meta.url);
const { connect, StorageType, RetentionPolicy } = require("nats");
const o = JSON.parse(process.argv[2]);
const nc = await connect({ servers: o.natsUrl });
const js = nc.jetstream();
const jsm = await nc.jetstreamManager();
const stream = `BENCH_RAW_${o.id}`;
await jsm.streams.add({
  name: stream,
  subjects: [`bench.raw.${o.id}`],
  storage: StorageType.File,
  retention: RetentionPolicy.Limits,
});
const payload = rawPayload();
const window = o.window ?? 1000;
const inFlight = new Set();
let acked = 0;
const started = performance.now();
const deadline = started + o.maxSeconds * 1000;
for (let i = 0; i < o.maxMessages && performance.now() < deadline; i++) {
  const p = js
    .publish(`bench.raw.${o.id}`, payload)
    .then(() => void acked++)
    .finally(() => inFlight.delete(p));
  inFlight.add(p);
  if (inFlight.size >= window) await Promise.race(inFlight);
}
await Promise.all(inFlight);
const seconds = (performance.now() - started) / 1000;
await jsm.streams.delete(stream);
await nc.drain();
console.log(
  JSON.stringify({
    mode: "raw_jetstream",
    acknowledged: acked,
    seconds: Math.round(seconds * 100) / 100,
    eps: Math.round(acked / seconds),
    cpu_s: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1e4) / 100,
  }),
);
