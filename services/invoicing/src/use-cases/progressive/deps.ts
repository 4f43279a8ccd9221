import type { Logger } from "@billing/logger";
import type { TestClocks } from "../../peers/test-clocks";
import type { ProgressiveRepository } from "../../persistence/progressive-repository";
import type { FinalizeDeps } from "../invoices/deps";

/** What progressive billing is given (usage thresholds, lifetime usage); each use case takes the part it uses. */
export interface ProgressiveDeps extends FinalizeDeps {
  logger: Logger;
  /** Lifetime usage reads, historical usage, the organizations that bill progressively. */
  progressive: ProgressiveRepository;
  /** Sandbox organizations' frozen time (usage envelopes may not carry it). */
  testClocks: TestClocks;
}
