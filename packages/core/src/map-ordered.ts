/**
 * Applies `fn` to every item with at most `limit` calls in flight and yields the results in the
 * order of the items, so that output does not depend on timing (`scan`, `audit`). A call that takes
 * long does not hold the others back: while it runs, later items start as others finish, until
 * `4 × limit` results wait behind it. `fn` must not reject.
 */
export async function* mapOrdered<T, R>(items: Iterable<T>, limit: number, fn: (item: T) => Promise<R>): AsyncGenerator<R> {
  const iterator = items[Symbol.iterator]();
  const waiting = limit * 4;
  /** The calls started and not yielded yet, in the order of their items. */
  const started: Promise<R>[] = [];
  let running = 0;
  let done = false;
  const finished = () => {
    running -= 1;
    startMore();
  };
  function startMore(): void {
    while (!done && running < limit && started.length < waiting) {
      const next = iterator.next();
      if (next.done === true) {
        done = true;
        return;
      }
      running += 1;
      const call = fn(next.value);
      started.push(call);
      call.then(finished, finished);
    }
  }
  startMore();
  for (let head = started.shift(); head !== undefined; head = started.shift()) {
    yield await head;
    startMore();
  }
}
