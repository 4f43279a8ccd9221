import { describe, expect, it } from "vitest";
import { counter, ctx, invoice } from "../test-fixtures";
import { checkInvoiceNumbering } from "./invoice-numbering";

const codes = (o: ReturnType<typeof checkInvoiceNumbering>) => o.breaches.map((b) => b.code);
const ENTITY = "entity:org_1:default";
const CUSTOMER_1 = "customer:org_1:default:c1";
const CUSTOMER_2 = "customer:org_1:default:c2";

/** Three finalized invoices: the entity's 1–3, customer c1's 1–2, customer c2's 1. */
const three = () => [
  invoice({ _id: "i1", number: "ACM-001-001", sequential_id: 1, sequences: { entity: 1, customer: 1 } }),
  invoice({
    _id: "i2",
    number: "ACM-002-001",
    customer_id: "c2",
    sequential_id: 1,
    sequences: { entity: 2, customer: 1 },
  }),
  invoice({ _id: "i3", number: "ACM-001-002", sequential_id: 2, sequences: { entity: 3, customer: 2 } }),
];
const counters = () => [
  counter({ _id: ENTITY, last: 3, block: { first: 3, invoices: ["i3"] } }),
  counter({ _id: CUSTOMER_1, last: 2 }),
  counter({ _id: CUSTOMER_2, last: 1 }),
];

describe("invoice_numbering", () => {
  it("finds gap-free sequences per billing entity and per customer clean", () => {
    const out = checkInvoiceNumbering(ctx, three(), counters());
    expect(out.breaches).toEqual([]);
    expect(out.checked).toBe(6); // 3 sequences, 3 invoices
  });

  it("reports a gap in a sequence with the counter and the invoices around it", () => {
    const [a, b, c] = three();
    const out = checkInvoiceNumbering(
      ctx,
      [a!, { ...b!, sequences: { entity: 4, customer: 1 } }, c!],
      [...counters().slice(1), counter({ _id: ENTITY, last: 4 })],
    );
    expect(codes(out)).toEqual(["number_gap"]);
    expect(out.breaches[0]!.message).toContain("no invoice holds number 2");
    expect(out.breaches[0]!.records.map((r) => `${r.type}:${r.id}`)).toEqual([
      `invoice_counter:${ENTITY}`,
      "invoice:i1",
      "invoice:i3",
    ]);
  });

  it("reports a number given twice, and beyond its counter", () => {
    const [a, b, c] = three();
    const out = checkInvoiceNumbering(ctx, [a!, { ...b!, sequences: { entity: 1, customer: 1 } }, c!], counters());
    expect(codes(out)).toEqual(["number_reused", "number_gap"]);
    const beyond = checkInvoiceNumbering(ctx, three(), [counter({ _id: ENTITY, last: 2 }), ...counters().slice(1)]);
    expect(codes(beyond)).toEqual(["number_out_of_range"]);
  });

  it("counts a number the counter's last block gave but the invoice does not carry yet (a finalizer stopped between its writes)", () => {
    const [a, b, c] = three();
    const out = checkInvoiceNumbering(
      ctx,
      [a!, b!, { ...c!, status: "generating", number: "ACM-DRAFT", sequential_id: null, sequences: { customer: 2 } }],
      counters(),
    );
    expect(out.breaches).toEqual([]);
  });

  it("reports a finalized invoice without its numbers, a sequential_id or document number that is not its own, and a number shown twice", () => {
    const [a, b, c] = three();
    const out = checkInvoiceNumbering(
      ctx,
      [{ ...a!, sequential_id: 5 }, { ...b!, number: "ACM-001-001" }, c!],
      counters(),
    );
    expect(codes(out)).toEqual(["sequential_id_mismatch", "document_number_reused"]);
    const unnumbered = checkInvoiceNumbering(
      ctx,
      [{ ...a!, sequences: null }],
      [counter({ _id: ENTITY, last: 0 }), counter({ _id: CUSTOMER_1, last: 0 })],
    );
    expect(codes(unnumbered)).toEqual(["finalized_without_number"]);
    const odd = checkInvoiceNumbering(
      ctx,
      [{ ...a!, number: "ACM-001-009" }],
      [counter({ _id: ENTITY, last: 1 }), counter({ _id: CUSTOMER_1, last: 1 })],
    );
    expect(codes(odd)).toEqual(["document_number_mismatch"]);
  });
});
