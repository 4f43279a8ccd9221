import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Tests only: poppler-utils' pdftotext and pdftoppm (Debian's poppler-utils; .ci/run installs it). */
export const hasPoppler = (() => {
  try {
    execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
    execFileSync("pdftoppm", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** The text poppler extracts from a PDF (reading order, no layout). */
export function pdfText(pdf: Buffer): string {
  return execFileSync("pdftotext", ["-enc", "UTF-8", "-", "-"], { input: pdf }).toString("utf8");
}

/** Renders every page to PNG at `dpi` (pdftoppm): the PNGs' bytes, page by page. Fails if poppler cannot read the PDF. */
export function pdfToPngs(pdf: Buffer, dpi = 50): Buffer[] {
  const dir = mkdtempSync(join(tmpdir(), "pdf-"));
  try {
    writeFileSync(join(dir, "doc.pdf"), pdf);
    execFileSync("pdftoppm", ["-png", "-r", String(dpi), join(dir, "doc.pdf"), join(dir, "page")], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    return readdirSync(dir)
      .filter((f) => f.endsWith(".png"))
      .sort()
      .map((f) => readFileSync(join(dir, f)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
