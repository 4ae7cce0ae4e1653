import { describe, expect, it } from "vitest";
import { mapOrdered } from "./map-ordered.js";

describe("mapOrdered", () => {
  it("yields results in the order of the items, whatever order the calls finish in", async () => {
    const delays = [30, 0, 20, 5, 0, 10];
    const results: number[] = [];
    const later = (index: number) =>
      new Promise<number>((resolve) => {
        setTimeout(() => {
          resolve(index);
        }, delays[index]);
      });
    for await (const result of mapOrdered(delays.keys(), 3, later)) results.push(result);
    expect(results).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("starts later items while a slow one runs, never more than `limit` at once", async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    let releaseFirst = (): void => undefined;
    const first = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const call = async (index: number): Promise<number> => {
      started.push(index);
      running += 1;
      most = Math.max(most, running);
      await (index === 0 ? first : new Promise((resolve) => setTimeout(resolve, 1)));
      running -= 1;
      return index;
    };
    const results = mapOrdered(Array.from({ length: 12 }, (_, index) => index), 2, call);
    const head = results.next();
    // The first call holds the head; the others go through the second slot meanwhile, until 4 × limit wait behind it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    releaseFirst();
    expect((await head).value).toBe(0);
    const rest: number[] = [];
    for await (const result of results) rest.push(result);
    expect(rest).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(most).toBe(2);
  });
});
