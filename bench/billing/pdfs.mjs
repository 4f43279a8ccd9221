// PDF benchmark: npm run bench:billing:pdfs. Renders invoices of 20 fees (graduated, package,
// percentage, volume and standard charges, filters and groups, coupons, two tax rates, custom
// sections) with @billing/documents, one after another in this process, each with its own number
// (so nothing could be reused between them), and prints PDFs per second and the latency of one
// rendering, and PDFs per second of this process's CPU time (what one core would render unshared,
// whatever else the machine runs). Target: ≥ 50 PDFs/s. Sizes: BENCH_PDFS (400), BENCH_PDF_FEES (20), BENCH_PDF_LOCALE (fr).
import { createRequire } from "node:module";
import os from "node:os";

const require = createRequire(import.meta.url);
const { renderInvoicePdf } = require("../../libs/documents/dist/index.js");
const { invoiceFixture } = require("../../libs/documents/dist/fixtures.js");
const COUNT = Number(process.env.BENCH_PDFS ?? 400);
const FEES = Number(process.env.BENCH_PDF_FEES ?? 20);
const LOCALE = process.env.BENCH_PDF_LOCALE ?? "fr";
const TARGET = 50;

console.log(
  `load before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (${os.cpus().length} cores)`,
);
const invoice = (i) => ({ ...invoiceFixture(FEES, LOCALE), number: `BENCH-${String(i).padStart(6, "0")}` });
// warm-up: fonts unpacked, code compiled
for (let i = 0; i < 20; i++) await renderInvoicePdf(invoice(-i));

const times = [];
let bytes = 0;
const started = performance.now();
const cpuStarted = process.cpuUsage();
for (let i = 0; i < COUNT; i++) {
  const t = performance.now();
  const pdf = await renderInvoicePdf(invoice(i));
  times.push(performance.now() - t);
  bytes += pdf.length;
}
const elapsed = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStarted);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
times.sort((a, b) => a - b);
const at = (q) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] * 10) / 10;
const result = {
  pdfs: COUNT,
  fees_per_invoice: FEES,
  locale: LOCALE,
  pdfs_per_s: Math.round((COUNT / elapsed) * 10) / 10,
  pdfs_per_cpu_s: Math.round((COUNT / cpuSeconds) * 10) / 10,
  target_pdfs_per_s: TARGET,
  render_ms_p50: at(0.5),
  render_ms_p99: at(0.99),
  avg_pdf_kb: Math.round(bytes / COUNT / 102.4) / 10,
  load_avg: os.loadavg().map((l) => Math.round(l * 100) / 100),
};
console.log(
  `${result.pdfs_per_s} PDFs/s (target ≥ ${TARGET}; ${result.pdfs_per_cpu_s} per CPU-second), one in ${result.render_ms_p50} ms (p99 ${result.render_ms_p99} ms), ${result.avg_pdf_kb} KB each`,
);
console.log(JSON.stringify(result));
if (result.pdfs_per_s < TARGET) process.exitCode = 1;
