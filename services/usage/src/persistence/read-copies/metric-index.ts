import type { MetricCopy } from "../../domain/read-copies";
import type { Versioned } from "./copy-repository";
import { IdsByKey } from "./ids-by-key";

const key = (organizationId: string, code: string) => `${organizationId}\u0000${code}`;

/** Billable metrics in memory: by id (deleted ones kept, for ordering) and live ones by code. */
export class MetricIndex {
  private readonly byId = new Map<string, Versioned<MetricCopy>>();
  private readonly liveByCode = new IdsByKey();

  /** Keeps the copy unless a newer or equal version is already held; true when it was taken. */
  put(copy: Versioned<MetricCopy>): boolean {
    const current = this.byId.get(copy.value.svc_id);
    if (current && current.version >= copy.version) return false;
    if (current) this.liveByCode.delete(key(current.value.organization_id, current.value.code), current.value.svc_id);
    this.byId.set(copy.value.svc_id, copy);
    if (!copy.value.deleted_at)
      this.liveByCode.add(key(copy.value.organization_id, copy.value.code), copy.value.svc_id);
    return true;
  }

  /** The live metric of a code; should two be live (a deletion not yet received), the newest. */
  live(organizationId: string, code: string): MetricCopy | null {
    let best: MetricCopy | null = null;
    for (const id of this.liveByCode.get(key(organizationId, code))) {
      const metric = this.byId.get(id)!.value;
      if (!best || metric.created_at > best.created_at) best = metric;
    }
    return best;
  }

  get size(): number {
    return this.byId.size;
  }
}
