// A bounded fan-out: the admin test-all and the doctor's account rows both reach core for every account, a few
// at a time, so neither looks like a login storm.

/** Runs `fn` over `items` with at most `limit` at a time; results keep the input order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
