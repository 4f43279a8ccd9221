import { BlockList, isIP } from "node:net";

/**
 * The one check of where a webhook may go, for an IP literal in an endpoint's URL (at creation
 * and at each attempt) and for every address its host name resolves to (at each connection).
 * The ranges are kept in node's `net.BlockList`; an IPv6 address that carries an IPv4 address
 * (IPv4-mapped and -translated, IPv4-compatible, NAT64's well-known prefix, 6to4) is refused when
 * that IPv4 address is, so `::ffff:10.0.0.1`, `64:ff9b::a9fe:a9fe` or `2002:7f00:1::` cannot reach
 * what `10.0.0.1`, `169.254.169.254` or `127.0.0.1` may not.
 */
const forbidden = new BlockList();

/** IPv4: this network, RFC 1918, CGNAT, loopback, link-local, IETF protocol assignments, benchmarking, multicast, reserved and broadcast. */
const IPV4_RANGES: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
/**
 * IPv6: unspecified, loopback, discard-only, Teredo (its IPv4 client address is obfuscated, so
 * it is refused whole), NAT64's local-use prefix (RFC 8215: the IPv4 address may sit anywhere in
 * it), unique local, link-local, the old site-local and multicast.
 */
const IPV6_RANGES: [string, number][] = [
  ["::", 128],
  ["::1", 128],
  ["100::", 64],
  ["2001::", 32],
  ["64:ff9b:1::", 48],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
];
for (const [network, prefix] of IPV4_RANGES) forbidden.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of IPV6_RANGES) forbidden.addSubnet(network, prefix, "ipv6");

/** The eight 16-bit groups of an IPv6 address (any textual form, dotted IPv4 tail included), or null. */
export function ipv6Groups(address: string): number[] | null {
  let canonical: string;
  try {
    // the URL parser validates and compresses it ("::ffff:1.2.3.4" → "[::ffff:102:304]")
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head, tail] = canonical.split("::") as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const dotted = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** The IPv4 address an IPv6 address carries, when it is of a form that carries one. */
export function embeddedIpv4(groups: readonly number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeroFirst = (n: number) => groups.slice(0, n).every((g) => g === 0);
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated), ::ffff:0:a.b.c.d (translated, RFC 2765)
  if (zeroFirst(5) && (g5 === 0xffff || g5 === 0)) return dotted(g6, g7);
  if (zeroFirst(4) && g4 === 0xffff && g5 === 0) return dotted(g6, g7);
  // 64:ff9b::a.b.c.d, NAT64's well-known prefix (RFC 6052): public IPv4 hosts reached from IPv6-only networks
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return dotted(g6, g7);
  // 2002:AABB:CCDD::/48, 6to4 (RFC 3056): the relay's IPv4 address follows the prefix
  if (g0 === 0x2002) return dotted(g1, g2);
  return null;
}

/**
 * Whether a webhook may not be sent to this IP address: loopback, private, link-local, CGNAT,
 * unique local, multicast, unspecified, reserved, or an IPv6 form that carries such an IPv4
 * address. A zone (`fe80::1%eth0`) is ignored; anything that is not an IP address is refused.
 */
export function isForbiddenAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(ip);
  if (family === 4) return forbidden.check(ip, "ipv4");
  if (family !== 6) return true;
  const groups = ipv6Groups(ip);
  if (!groups) return true;
  if (forbidden.check(ip, "ipv6")) return true;
  const v4 = embeddedIpv4(groups);
  return v4 !== null && forbidden.check(v4, "ipv4");
}
