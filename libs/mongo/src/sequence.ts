import { isDuplicateKeyError } from "./connection";
import { LOST_RACE, retryOnLostRace } from "./optimistic";
import type { DocModel } from "./typed";

/** A counter document: the last number taken of the sequence `_id`. */
export interface SequenceDoc {
  _id: string;
  seq: number;
}

/**
 * Takes the next number of a sequence held in one counter document (`{ _id, seq }`), unique under
 * any concurrency. The number is the one this call moved the counter to with a conditional update,
 * never a value read back afterwards: the test server's findAndModify returns a document re-read
 * after the update, which a concurrent increment may already have moved (two callers were seen
 * getting the same number). A sequence may skip a number only if its caller crashes after taking it.
 */
export async function takeNextInSequence(model: DocModel<SequenceDoc>, id: string): Promise<number> {
  const counters = model.collection;
  return retryOnLostRace(
    `the sequence ${id}`,
    async () => {
      const current = await counters.findOne({ _id: id });
      if (!current) {
        try {
          await counters.insertOne({ _id: id, seq: 1 });
          return 1;
        } catch (err) {
          if (isDuplicateKeyError(err)) return LOST_RACE;
          throw err;
        }
      }
      const moved = await counters.updateOne({ _id: id, seq: current.seq }, { $set: { seq: current.seq + 1 } });
      return moved.modifiedCount === 1 ? current.seq + 1 : LOST_RACE;
    },
    200,
  );
}
