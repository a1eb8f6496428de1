// Work that must start at most once per key (a follow-up per note, say): a second call while the first is going,
// or after it succeeded, gets the same promise; one that failed may be tried again, and a result that no longer
// holds (`stillGood`) is started afresh.

export class OncePerKey<T> {
  private readonly started = new Map<string, Promise<T>>();

  constructor(private readonly stillGood: (value: T) => boolean = () => true) {}

  async run(key: string, start: () => Promise<T>): Promise<T> {
    const earlier = this.started.get(key);
    if (earlier) {
      const value = await earlier.catch(() => undefined);
      // A failed start has left the map by now (below); one whose value went stale starts again.
      if (value !== undefined && this.stillGood(value)) return value;
    }
    const next = start();
    this.started.set(key, next);
    next.catch(() => {
      if (this.started.get(key) === next) this.started.delete(key);
    });
    return next;
  }
}
