import { describe, expect, it } from "vitest";
import {
  defaultDocumentNumberPrefix,
  documentNumberPrefix,
  draftInvoiceNumber,
  formatInvoiceNumber,
} from "./numbering";

describe("invoice numbering", () => {
  it("defaults the prefix to the entity name's first 3 characters and its id's last 4, upper-cased", () => {
    expect(defaultDocumentNumberPrefix("Acme Corp", "1b8e4c1e-5f0a-4d7e-9a4b-0c2d3e4f9f3a")).toBe("ACM-9F3A");
    expect(defaultDocumentNumberPrefix("Ÿo", "abcd")).toBe("ŸO-ABCD");
    expect(documentNumberPrefix({ name: "Acme", id: "x-12ab", document_number_prefix: "INV" })).toBe("INV");
    expect(documentNumberPrefix({ name: "Acme", id: "x-12ab", document_number_prefix: null })).toBe("ACM-12AB");
  });

  it("numbers drafts PREFIX-DRAFT", () => {
    expect(draftInvoiceNumber("ACM-9F3A")).toBe("ACM-9F3A-DRAFT");
  });

  it.each([
    [7, 1, "ACM-9F3A-007-001"],
    [12, 45, "ACM-9F3A-012-045"],
    [1234, 1000, "ACM-9F3A-1234-1000"],
  ])("numbers per customer: customer %i, invoice %i -> %s", (customer, n, number) => {
    expect(
      formatInvoiceNumber({
        document_numbering: "per_customer",
        prefix: "ACM-9F3A",
        customer_sequential_id: customer,
        sequence: n,
      }),
    ).toBe(number);
  });

  it("numbers per billing entity with the finalization month in the entity's time zone, never resetting n", () => {
    const at = "2024-03-31T23:30:00Z";
    expect(
      formatInvoiceNumber({ document_numbering: "per_organization", prefix: "ACM", sequence: 42, finalized_at: at }),
    ).toBe("ACM-202403-042");
    expect(
      formatInvoiceNumber({
        document_numbering: "per_billing_entity",
        prefix: "ACM",
        sequence: 43,
        finalized_at: at,
        timezone: "Europe/Paris",
      }),
    ).toBe("ACM-202404-043");
    expect(
      formatInvoiceNumber({
        document_numbering: "per_organization",
        prefix: "ACM",
        sequence: 1001,
        finalized_at: "2025-01-01T00:00:00Z",
        timezone: "America/New_York",
      }),
    ).toBe("ACM-202412-1001");
  });

  it("refuses a missing customer sequential id, finalization instant or a bad sequence", () => {
    expect(() => formatInvoiceNumber({ document_numbering: "per_customer", prefix: "A", sequence: 1 })).toThrow(
      RangeError,
    );
    expect(() => formatInvoiceNumber({ document_numbering: "per_organization", prefix: "A", sequence: 1 })).toThrow(
      RangeError,
    );
    expect(() =>
      formatInvoiceNumber({
        document_numbering: "per_customer",
        prefix: "A",
        sequence: 1.5,
        customer_sequential_id: 1,
      }),
    ).toThrow(RangeError);
  });
});
