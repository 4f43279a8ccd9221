import { describe, expect, it } from "vitest";
import { replyCodec } from "@billing/grpc";
import { Rpc } from "./services";

describe("a reply kept as its bytes", () => {
  const customers = replyCodec(Rpc.customer, "GetCustomer");

  it("reads back what a client of the method receives: defaults filled, optional fields absent, int64 as numbers", () => {
    const bytes = customers.encode({
      customer: {
        svc_id: "c1",
        external_id: "acme",
        net_payment_term: null,
        metadata: [{ key: "a.b $c", value: "v", display_in_invoice: true }],
      },
    });
    const { customer } = customers.decode(bytes);
    expect(customer).toMatchObject({
      svc_id: "c1",
      external_id: "acme",
      created_at: "",
      metadata: [{ key: "a.b $c", value: "v", display_in_invoice: true }],
    });
    expect(customer).not.toHaveProperty("net_payment_term");
    const invoices = replyCodec(Rpc.invoicing, "GetInvoice");
    expect(
      invoices.decode(invoices.encode({ invoice: { svc_id: "i1", total_amount_cents: 1_234 } })).invoice,
    ).toMatchObject({ svc_id: "i1", total_amount_cents: 1_234 });
  });

  it("refuses bytes that are not the message", () => {
    expect(() => customers.decode(Buffer.from("not a customer reply"))).toThrow();
  });
});
