import { isIP } from "node:net";

export interface AuthFailureSettings {
  /** Failed authentications a client address may make within a window; 0 turns counting off. */
  limit: number;
  /** The window's length, from the address's first failure in it. */
  windowMs: number;
}

interface Window {
  count: number;
  until: number;
}

/**
 * What failures are counted by: an IPv4 address (also when the socket shows it IPv4-mapped,
 * `::ffff:a.b.c.d`), or an IPv6 address's /64 (one client commonly holds a whole /64).
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return mapped;
  if (isIP(address) !== 6) return address;
  let canonical: string;
  try {
    canonical = new URL(`http://[${address.replace(/%.*$/, "")}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
  const [head, tail] = canonical.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return `${groups.slice(0, 4).join(":")}::/64`;
}

/**
 * Failed authentications per client address, in this process: an address that failed `limit`
 * times within `windowMs` (counted from its first failure) is refused until that window ends.
 * Pure: time is given (milliseconds) to every call. At most `maxAddresses` are kept; beyond that
 * ended windows go first, then the oldest.
 */
export class AuthFailures {
  private readonly windows = new Map<string, Window>();
  readonly enabled: boolean;

  constructor(
    readonly settings: AuthFailureSettings,
    private readonly maxAddresses = 10_000,
  ) {
    this.enabled = settings.limit > 0 && settings.windowMs > 0;
  }

  /** Whole seconds until the address may try again (its window's end), or 0 when it may now. */
  blockedFor(address: string, nowMs: number): number {
    if (!this.enabled) return 0;
    const w = this.windows.get(addressKey(address));
    if (!w || w.until <= nowMs || w.count < this.settings.limit) return 0;
    return Math.max(1, Math.ceil((w.until - nowMs) / 1000));
  }

  /** Counts one failed authentication of the address. */
  fail(address: string, nowMs: number): void {
    if (!this.enabled) return;
    const key = addressKey(address);
    const w = this.windows.get(key);
    if (w && w.until > nowMs) {
      w.count++;
      return;
    }
    if (w) this.windows.delete(key);
    else if (this.windows.size >= this.maxAddresses) this.evict(nowMs);
    this.windows.set(key, { count: 1, until: nowMs + this.settings.windowMs });
  }

  get size(): number {
    return this.windows.size;
  }

  private evict(nowMs: number): void {
    for (const [key, w] of this.windows) if (w.until <= nowMs) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxAddresses * 0.9) break;
      this.windows.delete(key);
    }
  }
}
