import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The longest files first, known before any run has been timed (a clean clone has no durations in
 * vitest's cache): the fault suite (minutes of outages it waits out, while the CPU serves the
 * others), then the crash tests, then the rest in vitest's own order (slowest known first, else
 * largest). The run then ends on short files instead of waiting for a long one started last.
 */
export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) =>
      file.moduleId.includes("/tests/faults/") ? 0 : /-crash\.test\.ts$/.test(file.moduleId) ? 1 : 2;
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
