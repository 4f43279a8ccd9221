import { BACKEND_SERVICES, type Platform } from "@billing/testkit";

/** What the durable consumers of the platform did with their messages, summed over every service and every incarnation of it. */
export interface ConsumerFigures {
  redelivered: number;
  terminated: number;
  acked: number;
}

type Outcome = keyof ConsumerFigures;
const OUTCOMES: readonly Outcome[] = ["redelivered", "terminated", "acked"];

/** Sums `nats_consumer_messages_total{outcome}` of one /metrics text by outcome. */
export function consumerOutcomes(text: string): ConsumerFigures {
  const figures: ConsumerFigures = { redelivered: 0, terminated: 0, acked: 0 };
  for (const line of text.split("\n")) {
    if (!line.startsWith("nats_consumer_messages_total{")) continue;
    const outcome = /outcome="([a-z_]+)"/.exec(line)?.[1] as Outcome | undefined;
    const value = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (outcome && OUTCOMES.includes(outcome) && Number.isFinite(value)) figures[outcome] += value;
  }
  return figures;
}

/**
 * Scrapes every backend service's /metrics (its METRICS_PORT) every `intervalMs`. A counter starts
 * again at zero when its process is restarted (kill -9): each process's last scrape is kept and
 * added to the total once another process (a new PID) answers for the service, so the figures are
 * the whole run's (less whatever a killed process counted after its last scrape). A paused
 * process does not answer: its last figures stand.
 */
export class ConsumerMetrics {
  private readonly finished: ConsumerFigures = { redelivered: 0, terminated: 0, acked: 0 };
  private readonly current = new Map<string, { pid: number; figures: ConsumerFigures }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly platform: Platform,
    private readonly intervalMs = 2_000,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.scrape(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Reads each service once now (call it before a kill to lose nothing of that process). */
  async scrape(): Promise<void> {
    await Promise.all(
      BACKEND_SERVICES.map(async (service) => {
        const pid = this.platform.processes.get(service)?.pid;
        if (!pid) return;
        const res = await fetch(`http://127.0.0.1:${this.platform.env[service].METRICS_PORT}/metrics`, {
          signal: AbortSignal.timeout(1_500),
        }).catch(() => undefined);
        if (!res?.ok) return;
        const figures = consumerOutcomes(await res.text());
        const before = this.current.get(service);
        if (before && before.pid !== pid) for (const o of OUTCOMES) this.finished[o] += before.figures[o];
        this.current.set(service, { pid, figures });
      }),
    );
  }

  totals(): ConsumerFigures {
    const total = { ...this.finished };
    for (const { figures } of this.current.values()) for (const o of OUTCOMES) total[o] += figures[o];
    return total;
  }
}
