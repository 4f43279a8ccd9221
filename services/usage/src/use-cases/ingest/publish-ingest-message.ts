import type { Bus } from "@billing/bus";

/**
 * Publishes one group commit's ingest message, acknowledged by JetStream (file storage) before it
 * resolves; one retry with the same msgID, which the stream's duplicate window stores once.
 */
export function ingestPublisher(bus: Bus, subject: string, timeoutMs: number) {
  return async (data: Uint8Array, batchId: string): Promise<void> => {
    const options = { msgID: batchId, timeout: timeoutMs };
    await bus.js.publish(subject, data, options).catch(() => bus.js.publish(subject, data, options));
  };
}
