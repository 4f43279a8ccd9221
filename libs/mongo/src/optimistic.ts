import { AppError } from "@billing/errors";

/** Returned by an attempt that lost an optimistic race (the document changed since it was read). */
export const LOST_RACE: unique symbol = Symbol("lost optimistic race");
export type Attempt<T> = T | typeof LOST_RACE;

/**
 * The optimistic write loop: `attempt` reads, decides and writes conditionally on what it read,
 * returning LOST_RACE when someone else wrote first; it is then run again after a short jittered
 * wait that grows with each try. After `maxAttempts` the caller gets 503 `unavailable` (retry).
 * An attempt that throws (a validation error, say) ends the loop with nothing stored.
 */
export async function retryOnLostRace<T>(
  what: string,
  attempt: (n: number) => Promise<Attempt<T>>,
  maxAttempts = 25,
): Promise<T> {
  for (let n = 0; n < maxAttempts; n++) {
    const outcome = await attempt(n);
    if (outcome !== LOST_RACE) return outcome;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * (n + 1)));
  }
  throw new AppError("unavailable", undefined, undefined, `${what} is being changed concurrently; retry`);
}
