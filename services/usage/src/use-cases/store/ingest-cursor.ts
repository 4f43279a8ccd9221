import type { UsageCollections } from "../../persistence/collections";

/** The last ingest message whose events are all stored, per deployment (ingest subject). */
export class IngestCursor {
  constructor(
    private readonly collections: UsageCollections,
    private readonly id: string,
  ) {}

  async read(): Promise<number> {
    return (await this.collections.cursors.findOne({ _id: this.id }))?.seq ?? 0;
  }

  async advance(seq: number): Promise<void> {
    await this.collections.cursors.updateOne({ _id: this.id }, { $max: { seq } }, { upsert: true });
  }
}
