// How many runs go at once: at most `total`, and at most `perProvider` using any one provider (an endpoint such as
// api.openai.com or a local Ollama), since rate limits are per provider and a slow local server must not hold up
// the others. A run takes a slot of every provider its agents use, all at once or none (so two runs can never each
// hold what the other waits for). Waiters start in order, except that one blocked on a busy provider lets later
// ones through on other providers; the providers it waits for are kept for it, so a stream of small runs cannot
// starve a team run that needs them all.

export class RunLimiter {
  private readonly busy = new Map<string, number>();
  private running = 0;
  private readonly queue: { keys: string[]; start: () => void }[] = [];

  constructor(
    readonly total: number,
    readonly perProvider: number,
  ) {
    if (!(total >= 1) || !(perProvider >= 1)) throw new Error('the limits must be at least 1');
  }

  /** Runs `task` once a slot is free for each of `keys`; `signal` aborted while waiting rejects with its reason. */
  run<T>(keys: readonly string[], task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const unique = [...new Set(keys)];
    return new Promise<T>((resolve, reject) => {
      const waiter = {
        keys: unique,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.running++;
          for (const k of unique) this.busy.set(k, (this.busy.get(k) ?? 0) + 1);
          task().then(resolve, reject).finally(() => {
            this.running--;
            for (const k of unique) this.busy.set(k, this.busy.get(k)! - 1);
            this.pump();
          });
        },
      };
      const onAbort = () => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(signal?.reason ?? new Error('aborted'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  /** Runs going now, and waiting. */
  get stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.queue.length };
  }

  private pump(): void {
    const kept = new Set<string>();
    for (let i = 0; i < this.queue.length && this.running < this.total; ) {
      const w = this.queue[i];
      const free = w.keys.every((k) => !kept.has(k) && (this.busy.get(k) ?? 0) < this.perProvider);
      if (!free) {
        for (const k of w.keys) kept.add(k);
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      w.start();
    }
  }
}
