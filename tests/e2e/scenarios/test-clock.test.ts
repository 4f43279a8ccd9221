import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../support/api";
import { startE2E, type E2E } from "../../support/platform";
import { advanceClock } from "../../support/sandbox";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E("test_clock");
});

afterAll(async () => {
  await e2e?.stop();
});

describe("test clocks", () => {
  it("a sandbox organization's time stands still until advanced, and shows on what it creates", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Frozen", "2024-01-01T00:00:00Z").api_key);
    const clock = await as("GET", "/test_clock");
    expect(clock).toMatchObject({ status: 200, body: { test_clock: { frozen_time: "2024-01-01T00:00:00.000Z", status: "ready" } } });
    const customer = await as("POST", "/customers", { customer: { external_id: "c1", currency: "EUR" } });
    expect(customer.body.customer.created_at).toBe("2024-01-01T00:00:00.000Z");
    await advanceClock(as, "2024-01-10T12:00:00Z");
    const later = await as("POST", "/customers", { customer: { external_id: "c2", currency: "EUR" } });
    expect(later.body.customer.created_at).toBe("2024-01-10T12:00:00.000Z");
  });

  it("refuses a time not after the current one, and answers 404 to an ordinary organization", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Frozen 2", "2024-01-01T00:00:00Z").api_key);
    const back = await as("POST", "/test_clock/advance", { test_clock: { frozen_time: "2023-12-31T00:00:00Z" } });
    expect(back).toMatchObject({ status: 422, body: { code: "validation_errors", error_details: { frozen_time: ["must_be_after_current_frozen_time"] } } });
    const bad = await as("POST", "/test_clock/advance", { test_clock: { frozen_time: "not a date" } });
    expect(bad.status).toBe(422);
    const ordinary = api(e2e.platform.baseUrl, e2e.organization("Ordinary").api_key);
    expect(await ordinary("GET", "/test_clock")).toMatchObject({ status: 404, body: { code: "test_clock_not_found" } });
  });
});
