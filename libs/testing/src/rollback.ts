/**
 * Runs `work` against in-memory `rows` as a transaction would: if it throws, the rows are put back as they were
 * before it, so a failed unit of work leaves nothing behind. For stores faked in memory in unit specs.
 */
export async function withRollback<K, V, T>(rows: Map<K, V>, work: () => Promise<T>): Promise<T> {
  const before = new Map([...rows].map(([key, row]) => [key, structuredClone(row)]));
  try {
    return await work();
  } catch (err) {
    rows.clear();
    for (const [key, row] of before) rows.set(key, row);
    throw err;
  }
}
