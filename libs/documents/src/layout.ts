import PDFDocument from "pdfkit";
import { documentFonts } from "./fonts";
import type { DocumentParty } from "./views";

/** A4 in points, its margins and the columns of the lines table. */
export const PAGE = { width: 595.28, height: 841.89, margin: 48 } as const;
const RIGHT = PAGE.width - PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin - 24; // the last line above the page number
export const COLUMNS = {
  item: { x: PAGE.margin, width: 235 },
  units: { x: PAGE.margin + 240, width: 60 },
  unitPrice: { x: PAGE.margin + 305, width: 90 },
  amount: { x: PAGE.margin + 400, width: RIGHT - (PAGE.margin + 400) },
} as const;
const GREY = "#555555";
const RULE = "#bbbbbb";

export interface DocumentMeta {
  title: string;
  author: string;
  subject: string;
  dated_at: Date;
}

/**
 * One document being drawn: a cursor going down the pages, a page break (with the table's header
 * drawn again) whenever the next block would not fit, page numbers at the end.
 * Deterministic: pdfkit's CreationDate (and the file ID derived from the info) come from `meta`,
 * fonts are embedded from files, nothing depends on the time or randomness.
 */
export class DocumentCanvas {
  readonly doc: PDFKit.PDFDocument;
  y: number = PAGE.margin;
  private tableHeader: (() => void) | null = null;

  constructor(meta: DocumentMeta) {
    this.doc = new PDFDocument({
      size: "A4",
      margin: PAGE.margin,
      bufferPages: true,
      autoFirstPage: true,
      compress: true,
      info: {
        Title: meta.title,
        Author: meta.author,
        Subject: meta.subject,
        Creator: "billing-platform",
        Producer: "billing-platform (pdfkit)",
        CreationDate: meta.dated_at,
        ModDate: meta.dated_at,
      },
    });
    const { regular, bold } = documentFonts();
    // pdfkit takes a parsed font in place of a file (its types say only file or buffer)
    this.doc.registerFont("regular", regular as unknown as Buffer);
    this.doc.registerFont("bold", bold as unknown as Buffer);
    this.doc.font("regular").fontSize(9).fillColor("black");
  }

  /** Starts a new page when `height` more points would cross the bottom margin. */
  ensure(height: number): void {
    if (this.y + height <= BOTTOM) return;
    this.doc.addPage();
    this.y = PAGE.margin;
    this.tableHeader?.();
  }

  text(
    str: string,
    x: number,
    width: number,
    opts: { bold?: boolean; size?: number; color?: string; align?: "left" | "right" } = {},
  ): number {
    const { doc } = this;
    doc
      .font(opts.bold ? "bold" : "regular")
      .fontSize(opts.size ?? 9)
      .fillColor(opts.color ?? "black");
    doc.text(str, x, this.y, { width, align: opts.align ?? "left", lineBreak: true });
    return doc.heightOfString(str, { width });
  }

  heightOf(str: string, width: number, opts: { bold?: boolean; size?: number } = {}): number {
    this.doc.font(opts.bold ? "bold" : "regular").fontSize(opts.size ?? 9);
    return this.doc.heightOfString(str, { width });
  }

  /** The document's heading: the issuer's logo and name at the left, the title and its facts at the right. */
  heading(title: string, issuer: DocumentParty, facts: Array<[string, string]>): void {
    const top = this.y;
    let left = top;
    if (issuer.logo && issuer.logo.length > 0) {
      try {
        this.doc.image(Buffer.from(issuer.logo), PAGE.margin, top, { fit: [120, 48] });
        left += 56;
      } catch {
        // an image pdfkit cannot read is left out rather than failing the document
      }
    }
    this.y = top;
    this.text(title, PAGE.margin + 260, RIGHT - PAGE.margin - 260, { bold: true, size: 20, align: "right" });
    let right = top + 28;
    for (const [label, value] of facts) {
      this.y = right;
      this.text(`${label}: ${value}`, PAGE.margin + 200, RIGHT - PAGE.margin - 200, { align: "right" });
      right += 13;
    }
    this.y = Math.max(left, right) + 12;
  }

  /** The issuer and the customer side by side. */
  parties(
    fromLabel: string,
    issuer: DocumentParty,
    toLabel: string,
    customer: DocumentParty,
    ids: { tax_id: string; legal_number: string },
    customerRef?: string,
  ): void {
    const top = this.y;
    const half = (RIGHT - PAGE.margin) / 2 - 10;
    const block = (x: number, label: string, p: DocumentParty, extra: string[]) => {
      this.y = top;
      let h = this.text(label, x, half, { size: 8, color: GREY });
      this.y = top + h + 2;
      h = this.text(p.legal_name || p.name, x, half, { bold: true, size: 10 });
      this.y += h + 1;
      const lines = [
        ...(p.legal_name && p.legal_name !== p.name ? [p.name] : []),
        ...p.address,
        ...(p.email ? [p.email] : []),
        ...(p.tax_identification_number ? [`${ids.tax_id}: ${p.tax_identification_number}`] : []),
        ...(p.legal_number ? [`${ids.legal_number}: ${p.legal_number}`] : []),
        ...extra,
      ];
      for (const line of lines) {
        this.y += this.text(line, x, half);
      }
      return this.y;
    };
    const a = block(PAGE.margin, fromLabel, issuer, []);
    const b = block(PAGE.margin + half + 20, toLabel, customer, customerRef ? [customerRef] : []);
    this.y = Math.max(a, b) + 18;
  }

  /** The lines table's header, drawn again at the top of every following page. */
  startTable(labels: { item: string; units: string; unitPrice: string; amount: string }): void {
    this.tableHeader = () => {
      const top = this.y;
      this.text(labels.item, COLUMNS.item.x, COLUMNS.item.width, { bold: true, size: 8, color: GREY });
      this.text(labels.units, COLUMNS.units.x, COLUMNS.units.width, {
        bold: true,
        size: 8,
        color: GREY,
        align: "right",
      });
      this.text(labels.unitPrice, COLUMNS.unitPrice.x, COLUMNS.unitPrice.width, {
        bold: true,
        size: 8,
        color: GREY,
        align: "right",
      });
      this.text(labels.amount, COLUMNS.amount.x, COLUMNS.amount.width, {
        bold: true,
        size: 8,
        color: GREY,
        align: "right",
      });
      this.y = top + 12;
      this.rule();
    };
    this.ensure(40);
    this.tableHeader();
  }

  endTable(): void {
    this.tableHeader = null;
    this.y += 6;
  }

  rule(color = RULE): void {
    this.doc.moveTo(PAGE.margin, this.y).lineTo(RIGHT, this.y).lineWidth(0.5).strokeColor(color).stroke();
    this.y += 4;
  }

  /** One table row: its name (bold) with detail lines under it, and the numbers at the right; kept on one page. */
  row(name: string, details: string[], units: string, unitPrice: string, amount: string): void {
    const w = COLUMNS.item.width;
    const height =
      this.heightOf(name, w, { bold: true }) +
      details.reduce((h, d) => h + this.heightOf(d, w - 8, { size: 7.5 }), 0) +
      6;
    this.ensure(height);
    const top = this.y;
    this.text(units, COLUMNS.units.x, COLUMNS.units.width, { align: "right" });
    this.text(unitPrice, COLUMNS.unitPrice.x, COLUMNS.unitPrice.width, { align: "right" });
    this.text(amount, COLUMNS.amount.x, COLUMNS.amount.width, { align: "right" });
    this.y = top;
    this.y += this.text(name, COLUMNS.item.x, w, { bold: true });
    for (const d of details) this.y += this.text(d, COLUMNS.item.x + 8, w - 8, { size: 7.5, color: GREY });
    this.y = top + height;
  }

  /** A label and an amount in the totals block at the right. */
  total(label: string, amount: string, opts: { bold?: boolean } = {}): void {
    const x = PAGE.margin + 150;
    const labelWidth = COLUMNS.amount.x - x - 10;
    const h = Math.max(this.heightOf(label, labelWidth, opts), 12);
    this.ensure(h + 2);
    const top = this.y;
    this.text(label, x, labelWidth, { ...opts, align: "right" });
    this.y = top;
    this.text(amount, COLUMNS.amount.x, COLUMNS.amount.width, { ...opts, align: "right" });
    this.y = top + h + 2;
  }

  /** A titled paragraph (an invoice custom section, the footer). */
  paragraph(title: string | null, body: string): void {
    const width = RIGHT - PAGE.margin;
    const height =
      (title ? this.heightOf(title, width, { bold: true }) : 0) + this.heightOf(body, width, { size: 8 }) + 8;
    this.ensure(Math.min(height, BOTTOM - PAGE.margin));
    if (title) this.y += this.text(title, PAGE.margin, width, { bold: true });
    this.y += this.text(body, PAGE.margin, width, { size: 8, color: GREY }) + 8;
  }

  /** Page numbers on every page, then the PDF's bytes. */
  async finish(pageLabel: (n: number, of: number) => string): Promise<Buffer> {
    const { doc } = this;
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      doc.page.margins.bottom = 0; // the number sits below the content's bottom margin: no page break for it
      doc.font("regular").fontSize(7.5).fillColor(GREY);
      doc.text(pageLabel(i - range.start + 1, range.count), PAGE.margin, PAGE.height - PAGE.margin - 10, {
        width: RIGHT - PAGE.margin,
        align: "right",
        lineBreak: false,
        height: 10,
      });
    }
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    const done = new Promise<Buffer>((resolve, reject) => {
      doc.on("end", () => resolve(Buffer.concat(chunks)));
      doc.on("error", reject);
    });
    doc.end();
    return done;
  }
}
