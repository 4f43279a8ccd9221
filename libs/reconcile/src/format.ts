import { INVARIANTS, type Breach, type BreachRecord } from "./breach";
import type { ReconcileResult } from "./reconcile";

const recordLine = (r: BreachRecord) =>
  `    ${r.type} ${r.id}: ${Object.entries(r.fields)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(" ")}`;

function breachLines(b: Breach): string[] {
  const figures =
    b.expected !== undefined || b.actual !== undefined
      ? ` [expected ${String(b.expected ?? "-")}, found ${String(b.actual ?? "-")}]`
      : "";
  return [
    `BREACH ${b.invariant}/${b.code} organization ${b.organization_id}: ${b.message}${figures}`,
    ...b.records.map(recordLine),
  ];
}

/** The run as an operator reads it: one line per invariant, each breach with its records, a last line saying clean or not. */
export function formatText(result: ReconcileResult): string {
  const lines = [
    `reconcile: ${result.organizations.length} organization(s)${result.organizations.length === 1 ? ` (${result.organizations[0]})` : ""}`,
  ];
  const width = Math.max(...INVARIANTS.map((i) => i.length));
  for (const invariant of INVARIANTS) {
    const breaches = result.breaches.filter((b) => b.invariant === invariant).length;
    const skipped = result.skipped[invariant]
      ? `, ${result.skipped[invariant]} left for the next run (changed within the grace period)`
      : "";
    lines.push(
      `  ${invariant.padEnd(width)}  ${String(result.checked[invariant]).padStart(6)} checked, ${breaches} breach(es)${skipped}`,
    );
  }
  for (const b of result.breaches) lines.push(...breachLines(b));
  lines.push(result.breaches.length ? `FAILED: ${result.breaches.length} breach(es)` : "OK: no breach");
  return lines.join("\n");
}

/** The run as JSON (`--json`): the result plus `ok`. */
export function formatJson(result: ReconcileResult): string {
  return JSON.stringify({ ok: result.breaches.length === 0, ...result }, null, 2);
}
