import { describe, expect, it } from "vitest";
import { endpointInputErrors, subscribes, urlPolicyProblem } from "./webhook-endpoint";

describe("webhook URL policy", () => {
  it("takes public http(s) URLs only, unless private addresses are allowed", () => {
    expect(urlPolicyProblem("https://hooks.example.com/billing", false)).toBeNull();
    expect(urlPolicyProblem("http://203.0.113.9:8080/x", false)).toBeNull();
    for (const url of [
      "ftp://example.com/x",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "nonsense",
      "https://a:b@example.com/",
    ])
      expect(urlPolicyProblem(url, true), url).toBe("url_invalid");
    for (const url of [
      "http://127.0.0.1/x",
      "http://localhost:3000/x",
      "http://api.localhost/x",
      "http://10.0.0.1/",
      "http://172.16.5.4/",
      "http://192.168.1.1/",
      "http://169.254.169.254/latest/meta-data",
      "http://100.64.0.1/",
      "http://0.0.0.0/",
      "http://[::1]/",
      "http://[fd00::1]/",
      "http://[fe80::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://metadata.google.internal/",
    ]) {
      expect(urlPolicyProblem(url, false), url).toBe("url_not_allowed");
      expect(urlPolicyProblem(url, true), url).toBeNull();
    }
  });

  it("refuses IP literals that carry an internal IPv4 address, in any of their spellings", () => {
    for (const url of [
      "http://[64:ff9b::7f00:1]/",
      "http://[64:ff9b::10.0.0.1]/",
      "http://[64:ff9b:1::1]/",
      "http://[2002:a9fe:a9fe::]/",
      "http://[::127.0.0.1]/",
      "http://[::ffff:7f00:1]/",
      "http://[::ffff:0:a00:1]/",
      "http://2130706433/",
      "http://0x7f.1/",
      "http://[fec0::1]/",
      "http://[ff02::1]/",
    ])
      expect(urlPolicyProblem(url, false), url).toBe("url_not_allowed");
    for (const url of [
      "http://[64:ff9b::808:808]/",
      "http://[2002:808:808::1]/",
      "http://[::ffff:8.8.8.8]/",
      "http://[2606:4700::1111]/",
    ])
      expect(urlPolicyProblem(url, false), url).toBeNull();
  });
});

describe("endpoint input", () => {
  it("reports every problem at once in Lago's shape", () => {
    expect(
      endpointInputErrors(
        { webhook_url: "ftp://x", signature_algo: "md5", event_types: ["invoice.created", "nope"] },
        false,
      ),
    ).toEqual({
      webhook_url: ["url_invalid"],
      signature_algo: ["value_is_invalid"],
      event_types: ["value_is_invalid"],
    });
    expect(
      endpointInputErrors(
        {
          webhook_url: "https://example.com",
          signature_algo: "standard",
          event_types: ["payment.requires_action", "customer.created"],
        },
        false,
      ),
    ).toBeNull();
  });

  it("subscribes to every type when none are named", () => {
    expect(subscribes({ event_types: null }, "invoice.created")).toBe(true);
    expect(subscribes({ event_types: ["*"] }, "invoice.created")).toBe(true);
    expect(subscribes({ event_types: ["customer.created"] }, "invoice.created")).toBe(false);
  });
});
