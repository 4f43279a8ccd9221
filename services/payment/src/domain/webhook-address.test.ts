import { describe, expect, it } from "vitest";
import { embeddedIpv4, ipv6Groups, isForbiddenAddress } from "./webhook-address";

const refused = (addresses: string[]) => {
  for (const a of addresses) expect(isForbiddenAddress(a), a).toBe(true);
};

describe("webhook addresses", () => {
  it("refuses loopback", () => refused(["127.0.0.1", "127.255.255.254", "::1", "0:0:0:0:0:0:0:1"]));
  it("refuses private (RFC 1918)", () =>
    refused(["10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.255", "192.168.0.1", "192.168.255.255"]));
  it("refuses link-local, the cloud metadata address among them", () =>
    refused(["169.254.169.254", "169.254.0.1", "fe80::1", "fe80::1%eth0", "febf::1"]));
  it("refuses CGNAT (100.64.0.0/10)", () => refused(["100.64.0.1", "100.127.255.254"]));
  it("refuses unique local and the old site-local", () => refused(["fc00::1", "fd12:3456:789a::1", "fec0::1"]));
  it("refuses multicast and broadcast", () =>
    refused(["224.0.0.1", "239.255.255.250", "255.255.255.255", "ff02::1", "ff0e::1"]));
  it("refuses unspecified and this-network", () => refused(["0.0.0.0", "0.1.2.3", "::", "0:0:0:0:0:0:0:0"]));
  it("refuses reserved, benchmarking, protocol-assignment, discard-only and Teredo", () =>
    refused(["240.0.0.1", "198.18.0.1", "198.19.255.255", "192.0.0.8", "100::1", "2001:0:4136:e378::1"]));

  it("refuses NAT64 addresses whose IPv4 address is internal, and NAT64's local-use prefix whole", () =>
    refused([
      "64:ff9b::7f00:1",
      "64:ff9b::127.0.0.1",
      "64:ff9b::a00:1",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b::c0a8:101",
      "64:ff9b:1::1",
      "64:ff9b:1:ffff::808:808",
    ]));
  it("refuses 6to4 addresses whose IPv4 address is internal", () =>
    refused(["2002:7f00:1::", "2002:a00:1::1", "2002:a9fe:a9fe::1", "2002:c0a8:101:1::1", "2002::1"]));
  it("refuses IPv4-compatible addresses whose IPv4 address is internal", () =>
    refused(["::127.0.0.1", "::7f00:1", "::10.0.0.1", "::a9fe:a9fe", "::0.0.0.2"]));
  it("refuses IPv4-mapped and -translated addresses whose IPv4 address is internal", () =>
    refused([
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.1.1.1",
      "::ffff:169.254.169.254",
      "::ffff:0:a00:1",
      "::ffff:0:127.0.0.1",
      "0:0:0:0:0:ffff:c0a8:0101",
    ]));

  it("refuses what is not an IP address", () => refused(["", "localhost", "example.com", "1.2.3", "::g", "[::1]x"]));

  it("lets public addresses through, whatever IPv6 form carries them", () => {
    for (const a of [
      "8.8.8.8",
      "1.1.1.1",
      "203.0.113.9",
      "172.32.0.1",
      "172.15.255.255",
      "100.63.255.255",
      "100.128.0.1",
      "169.253.0.1",
      "223.255.255.255",
      "192.0.1.1",
      "2606:4700:4700::1111",
      "2001:4860:4860::8888",
      "2a00:1450:4007:80e::200e",
      "2001:db8::1",
      "[2606:4700::1]",
      "::ffff:8.8.8.8",
      "::ffff:808:808",
      "64:ff9b::8.8.8.8",
      "64:ff9b::101:101",
      "2002:808:808::1",
      "::8.8.8.8",
      "::ffff:0:8.8.8.8",
    ])
      expect(isForbiddenAddress(a), a).toBe(false);
  });

  it("reads the IPv4 address each IPv6 form carries", () => {
    const v4 = (a: string) => embeddedIpv4(ipv6Groups(a)!);
    expect(ipv6Groups("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(ipv6Groups("2001:db8::")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups("not an address")).toBeNull();
    expect(v4("::ffff:10.0.0.1")).toBe("10.0.0.1");
    expect(v4("::ffff:0:10.0.0.1")).toBe("10.0.0.1");
    expect(v4("::10.0.0.1")).toBe("10.0.0.1");
    expect(v4("64:ff9b::169.254.169.254")).toBe("169.254.169.254");
    expect(v4("2002:c0a8:101::")).toBe("192.168.1.1");
    expect(v4("2606:4700::1111")).toBeNull();
  });
});
