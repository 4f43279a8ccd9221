// Loaded with NODE_OPTIONS=--require (Node 20 refuses --cpu-prof there). Each SIGUSR2 starts a CPU
// profile, the next one writes it to BENCH_PROFILE_DIR as <service>-<n>.cpuprofile.
const inspector = require("node:inspector");
const { writeFileSync } = require("node:fs");
const { join, basename, dirname } = require("node:path");

const session = new inspector.Session();
session.connect();
session.post("Profiler.enable");
session.post("Profiler.setSamplingInterval", { interval: 250 });
const service = basename(dirname(dirname(process.argv[1] || "node")));
let running = false;
let n = 0;
process.on("SIGUSR2", () => {
  if (!running) {
    running = true;
    session.post("Profiler.start");
    return;
  }
  running = false;
  session.post("Profiler.stop", (err, result) => {
    if (!err)
      writeFileSync(
        join(process.env.BENCH_PROFILE_DIR, `${service}-${++n}.cpuprofile`),
        JSON.stringify(result.profile),
      );
  });
});
