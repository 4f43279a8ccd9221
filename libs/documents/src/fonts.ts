import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { inflateSync } from "node:zlib";

/**
 * DejaVu Sans (the @fontsource package's Latin subset), embedded in every document: pdfkit's
 * built-in Helvetica is limited to WinAnsi, which lacks the narrow no-break space French amounts
 * are grouped with (U+202F) and much beyond Western Europe; an embedded font is subset by pdfkit
 * with a ToUnicode map, so the text extracted from the PDF is the text drawn (é, à, €).
 *
 * The package ships WOFF; fontkit would inflate its tables with a pure-JS inflater at every table
 * read (seconds per document), so the WOFF is unpacked once per process into the plain TrueType
 * font it wraps (node's zlib), and documents embed that. Its OpenType layout tables (GSUB, GPOS,
 * GDEF, kern) are left out: shaping with them was most of a document's rendering time, and Latin
 * invoice text needs neither ligatures nor kerning (no ligature also keeps extracted text literal).
 */
const LAYOUT_TABLES = new Set(["GSUB", "GPOS", "GDEF", "kern"]);
const localRequire = createRequire(__filename);
// fontkit (pdfkit's own font engine) has no type declarations: the one call made here
const fontkit = localRequire("fontkit") as { create(data: Buffer): DocumentFont };
/** A parsed font, as pdfkit takes it in place of a file (anything with `layout`). */
export type DocumentFont = { layout: (...args: unknown[]) => unknown };
let sfnt: { regular: Buffer; bold: Buffer } | null = null;

/**
 * The fonts of one document: unpacked from WOFF once per process, parsed by fontkit for each
 * document. A parsed font keeps the glyphs it has decoded, and pdfkit builds each document's
 * ToUnicode map from them; while one font object served every document of a process, a credit
 * note's extracted text now and then lost a letter ("CR-" for "CRE-" in its number), which no
 * longer happened once each document parsed its own.
 */
export function documentFonts(): { regular: DocumentFont; bold: DocumentFont } {
  sfnt ??= {
    regular: sfntOfWoff(
      readFileSync(localRequire.resolve("@fontsource/dejavu-sans/files/dejavu-sans-latin-400-normal.woff")),
      LAYOUT_TABLES,
    ),
    bold: sfntOfWoff(
      readFileSync(localRequire.resolve("@fontsource/dejavu-sans/files/dejavu-sans-latin-700-normal.woff")),
      LAYOUT_TABLES,
    ),
  };
  return { regular: fontkit.create(sfnt.regular), bold: fontkit.create(sfnt.bold) };
}

/** WOFF 1.0 → the SFNT (TrueType/OpenType) font it compresses: the same tables (but `drop`), inflated, in an SFNT directory. */
export function sfntOfWoff(woff: Buffer, drop: ReadonlySet<string> = new Set()): Buffer {
  if (woff.toString("latin1", 0, 4) !== "wOFF") throw new Error("not a WOFF font");
  const flavor = woff.readUInt32BE(4);
  const woffTables = woff.readUInt16BE(12);
  const tables: Array<{ tag: number; checksum: number; data: Buffer }> = [];
  for (let i = 0; i < woffTables; i++) {
    const at = 44 + i * 20;
    if (drop.has(woff.toString("latin1", at, at + 4))) continue;
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(raw) : raw;
    if (data.length !== origLength) throw new Error("corrupt WOFF table");
    tables.push({ tag: woff.readUInt32BE(at), checksum: woff.readUInt32BE(at + 16), data });
  }
  const numTables = tables.length;
  const pad = (n: number) => (n + 3) & ~3;
  let size = 12 + 16 * numTables;
  for (const t of tables) size += pad(t.data.length);
  const out = Buffer.alloc(size);
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(searchRange, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - searchRange, 10);
  let offset = 12 + 16 * numTables;
  tables.forEach((t, i) => {
    const rec = 12 + i * 16;
    out.writeUInt32BE(t.tag, rec);
    out.writeUInt32BE(t.checksum, rec + 4);
    out.writeUInt32BE(offset, rec + 8);
    out.writeUInt32BE(t.data.length, rec + 12);
    t.data.copy(out, offset);
    offset += pad(t.data.length);
  });
  return out;
}
