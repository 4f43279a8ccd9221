import type { FaultRecord } from "./faults";
import type { CheckResult } from "./invariants";
import type { ConsumerFigures } from "./metrics";

/** The one line of figures a run prints at its end. */
export function summaryLine(input: {
  label: string;
  faults: readonly FaultRecord[];
  checks: readonly CheckResult[];
  consumers: ConsumerFigures;
  parked: number;
  replayed: number;
  seconds: number;
}): string {
  const kinds = new Map<string, number>();
  for (const f of input.faults) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
  const records = input.checks.reduce((n, c) => n + c.checked, 0);
  const breached = input.checks.filter((c) => c.breaches.length > 0);
  return [
    `[faults] ${input.label}: ${input.faults.length} faults injected (${[...kinds].map(([k, n]) => `${n} ${k}`).join(", ")})`,
    `${input.checks.length} invariants checked over ${records} records, ${breached.length} breached${breached.length ? ` (${breached.map((c) => c.name).join("; ")})` : ""}`,
    `messages retried ${input.consumers.redelivered} (terminated ${input.consumers.terminated})`,
    `parked ${input.parked}, replayed ${input.replayed}`,
    `${input.seconds.toFixed(0)} s`,
  ].join("; ");
}
