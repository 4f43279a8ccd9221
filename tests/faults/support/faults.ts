import type { Platform, ServiceName } from "@billing/testkit";
import type { ConsumerMetrics } from "./metrics";
import type { RestartableServer } from "./servers";

/** One fault as injected: when (seconds since the run started), what, and how long it lasted. */
export interface FaultRecord {
  atS: number;
  kind: "pause" | "kill" | "nats-restart" | "mongo-restart";
  target: string;
  /** how long the target was away (ms) */
  outageMs: number;
  note?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Injects faults into a running platform and its servers, one method per kind, and keeps (and
 * prints) the record of each: SIGSTOP/SIGCONT of a service, kill -9 and a start after a while, a
 * restart of NATS or of the MongoDB test server (same port, same data). Processes are signalled
 * by their PID only. `release()` resumes whatever is still paused (a test that fails mid-fault).
 */
export class FaultInjector {
  readonly records: FaultRecord[] = [];
  private readonly paused = new Set<number>();
  private readonly startedAt = Date.now();

  constructor(
    private readonly platform: Platform,
    private readonly servers: { mongo: RestartableServer; nats: RestartableServer },
    private readonly metrics: ConsumerMetrics,
    private readonly print: (line: string) => void = (line) => console.log(line),
  ) {}

  /** Seconds since the run started. */
  now(): number {
    return Math.round((Date.now() - this.startedAt) / 100) / 10;
  }

  private record(entry: Omit<FaultRecord, "atS">, atS: number): void {
    const full = { atS, ...entry };
    this.records.push(full);
    this.print(
      `[faults] t=${atS.toFixed(1)}s ${entry.kind} ${entry.target}: away ${(entry.outageMs / 1000).toFixed(1)} s${entry.note ? ` (${entry.note})` : ""}`,
    );
  }

  private pidOf(service: ServiceName): number {
    const pid = this.platform.processes.get(service)?.pid;
    if (!pid) throw new Error(`${service} has no process`);
    return pid;
  }

  /** SIGSTOP now; resolves once SIGCONT was sent `ms` later. */
  pause(service: ServiceName, ms: number, note?: string): Promise<void> {
    const pid = this.pidOf(service);
    const at = this.now();
    process.kill(pid, "SIGSTOP");
    this.paused.add(pid);
    this.print(`[faults] t=${at.toFixed(1)}s SIGSTOP ${service} (pid ${pid}) for ${(ms / 1000).toFixed(0)} s`);
    return sleep(ms).then(() => {
      this.resume(pid);
      this.record({ kind: "pause", target: service, outageMs: ms, note }, at);
    });
  }

  /**
   * A short SIGSTOP (not counted as a fault): keeps a service from handling a message until the
   * next fault is in place (`thaw` ends it). Returns the stopped PID.
   */
  freeze(service: ServiceName): number {
    const pid = this.pidOf(service);
    process.kill(pid, "SIGSTOP");
    this.paused.add(pid);
    return pid;
  }

  thaw(pid: number): void {
    this.resume(pid);
  }

  private resume(pid: number): void {
    if (!this.paused.delete(pid)) return;
    try {
      process.kill(pid, "SIGCONT");
    } catch {
      // gone meanwhile
    }
  }

  /**
   * kill -9, then a new process `downMs` later. Resolves once the new process serves gRPC (the
   * gateway's /health names it serving), not waiting for services that are paused meanwhile.
   */
  async kill(
    service: ServiceName,
    downMs: number,
    options: { note?: string; whileDown?: () => void } = {},
  ): Promise<void> {
    await this.metrics.scrape();
    const at = this.now();
    const started = Date.now();
    await this.platform.kill(service, "SIGKILL");
    this.print(`[faults] t=${at.toFixed(1)}s kill -9 ${service}; a new process in ${(downMs / 1000).toFixed(0)} s`);
    options.whileDown?.();
    await sleep(downMs);
    // platform.start waits for the whole platform's health, which a paused peer withholds: wait for this one only
    const starting = this.platform.start(service).catch(() => undefined);
    await this.serving(service, starting);
    this.record({ kind: "kill", target: service, outageMs: Date.now() - started, note: options.note }, at);
  }

  private async serving(service: ServiceName, starting: Promise<unknown>): Promise<void> {
    let done = false;
    void starting.then(() => (done = true));
    const deadline = Date.now() + 90_000;
    while (!done) {
      const res = await fetch(`${this.platform.baseUrl}/health`, { signal: AbortSignal.timeout(3_000) }).catch(
        () => undefined,
      );
      const body = (await res?.json().catch(() => undefined)) as { services?: Record<string, string> } | undefined;
      // the gateway answering at all is the gateway serving; a backend, when the gateway's health check reaches it
      if (service === "gateway" ? body !== undefined : body?.services?.[service] === "serving") return;
      const child = this.platform.processes.get(service);
      if (child && child.exitCode !== null)
        throw new Error(`${service} exited with code ${child.exitCode} after its restart`);
      if (Date.now() > deadline) throw new Error(`${service} did not serve within 90 s of its restart`);
      await sleep(200);
    }
  }

  /** NATS stopped (SIGTERM) and started again on the same port and store after `downMs`. */
  async restartNats(downMs: number, note?: string): Promise<void> {
    const at = this.now();
    const started = Date.now();
    await this.servers.nats.restart({ downMs });
    this.record({ kind: "nats-restart", target: "nats", outageMs: Date.now() - started, note }, at);
  }

  /** The MongoDB test server stopped (SIGTERM: its H2 store is closed) and started again on the same port and file after `downMs`. */
  async restartMongo(downMs: number, note?: string): Promise<void> {
    const at = this.now();
    const started = Date.now();
    await this.servers.mongo.restart({ downMs });
    this.record({ kind: "mongo-restart", target: "mongo", outageMs: Date.now() - started, note }, at);
  }

  /** Resumes every process still paused. */
  release(): void {
    for (const pid of [...this.paused]) this.resume(pid);
  }
}
