/**
 * Documents read by `_id` in chunks of 100 (`_id: {$in: chunk}`), the chunks in parallel. Real
 * MongoDB takes any list; the MongoDB test server finds the documents by index but then matches each
 * one against the whole `$in` list, so one read of n ids costs n² comparisons there: 2,000 ids take
 * twice as long in one list as in chunks of 100, 10,000 ids several times as long. Reads that
 * must stay fast on the test server go through here.
 */
export async function readByIds<T>(
  ids: readonly string[],
  read: (chunk: string[]) => Promise<T[]>,
  chunkSize = 100,
): Promise<T[]> {
  if (ids.length === 0) return [];
  if (ids.length <= chunkSize) return read([...ids]);
  const chunks: Promise<T[]>[] = [];
  for (let i = 0; i < ids.length; i += chunkSize) chunks.push(read(ids.slice(i, i + chunkSize)));
  return (await Promise.all(chunks)).flat();
}
