import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, repoRoot, waitFor } from "@billing/testkit";

/**
 * The API's documentation page (/docs) in a real headless Chromium (Debian's `chromium`, which
 * .ci/run installs; CHROMIUM_PATH overrides where it is): the operations of our OpenAPI document
 * render, every asset comes from the gateway itself, and a screenshot lands in
 * test-results/docs.png. Only the compiled gateway runs: the page needs no backend service.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
const SKIPPED = `SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium, as .ci/run does, or set CHROMIUM_PATH)`;
if (!hasChromium) console.warn(`tests/e2e/docs.test.ts ${SKIPPED}`);

describe.skipIf(!hasChromium)(
  `the documentation page in headless Chromium${hasChromium ? "" : ` — ${SKIPPED}`}`,
  () => {
    let gateway: ChildProcess | undefined;
    let browser: Browser | undefined;
    let base = "";
    const output = join(repoRoot(), "test-results");

    beforeAll(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      gateway = spawn(process.execPath, [join(repoRoot(), "services/gateway/dist/main.js")], {
        env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
        stdio: ["ignore", "inherit", "inherit"],
      });
      await waitFor(async () => (await fetch(`${base}/api/v1/openapi.json`).catch(() => null))?.ok, {
        timeoutMs: 30_000,
        what: "the gateway",
      });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    });

    afterAll(async () => {
      await browser?.close();
      gateway?.kill("SIGTERM");
    });

    it("renders every operation of our document, from the gateway's own assets", async () => {
      const document = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { operationId: string }>>;
      };
      const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
      const page = await browser!.newPage({ viewport: { width: 1280, height: 1000 } });
      const requested: string[] = [];
      page.on("request", (request) => requested.push(request.url()));

      await page.goto(`${base}/docs`);
      expect(page.url()).toBe(`${base}/docs/`);
      const createCustomer = page.locator('.opblock-post .opblock-summary-path[data-path="/customers"]');
      await createCustomer.waitFor({ timeout: 30_000 });
      expect(await page.locator(".opblock").count()).toBe(operations.length);
      expect(await page.locator(".errors-wrapper").count(), "Swagger UI reports errors in the document").toBe(0);
      await expect(page.locator(".info .title").innerText()).resolves.toContain("Billing platform API");

      // one operation opened: its parameters and answers render from the document
      await createCustomer.click();
      const opened = page.locator("#operations-Customers-createCustomer");
      await opened.locator(".responses-wrapper").waitFor();
      await expect(opened.innerText()).resolves.toMatch(/422[\s\S]*Invalid fields/);

      mkdirSync(output, { recursive: true });
      await page.screenshot({ path: join(output, "docs.png") });
      expect(
        requested.filter((url) => !url.startsWith(`${base}/`)),
        "requests that left the gateway",
      ).toEqual([]);
    });
  },
);
