/**
 * Applies `fn` to every item with at most `limit` calls in flight and yields the
 * results in the order of the items, so that output does not depend on timing
 * (`scan`, `audit`). `fn` must not reject.
 */
export async function* mapOrdered<T, R>(items: Iterable<T>, limit: number, fn: (item: T) => Promise<R>): AsyncGenerator<R> {
  const iterator = items[Symbol.iterator]();
  const pending: Promise<R>[] = [];
  let done = false;
  for (;;) {
    while (!done && pending.length < limit) {
      const next = iterator.next();
      if (next.done === true) done = true;
      else pending.push(fn(next.value));
    }
    const head = pending.shift();
    if (head === undefined) return;
    yield await head;
  }
}
