// CPU seconds used by processes over a phase (Linux /proc), to see where a load's time goes.
import { readFileSync } from "node:fs";

const TICK = 100; // USER_HZ

function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICK;
  } catch {
    return 0;
  }
}

/** Starts sampling the named processes; `stop()` returns CPU-seconds per name. */
export function sampleCpu(named) {
  const start = Object.fromEntries(Object.entries(named).map(([name, pid]) => [name, cpuSeconds(pid)]));
  return () =>
    Object.fromEntries(
      Object.entries(named).map(([name, pid]) => [name, Math.round((cpuSeconds(pid) - start[name]) * 100) / 100]),
    );
}
