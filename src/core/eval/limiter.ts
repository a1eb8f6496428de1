// How many runs go at once: at most `total`, and at most `perProvider` using any one provider (an endpoint such as
// api.openai.com or a local Ollama), since rate limits are per provider and a slow local server must not hold up
// the others. A run takes a slot of every provider its agents use, all at once or none (so two runs can never each
// hold what the other waits for). Waiters start in order, except that one blocked on a busy provider lets later
// ones through on other providers; the providers it waits for are kept for it, so a stream of small runs cannot
// starve a team run that needs them all.

export class RunLimiter {
  private readonly busy = new Map<string, number>();
  private running = 0;
  private readonly queue: Waiter[] = [];
  /** One abort listener per signal, however many runs wait on it: an eval queues every pair on one signal. */
  private readonly watched = new Map<AbortSignal, () => void>();

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
      const aborted = () => reject(signal?.reason ?? new Error('aborted'));
      if (signal?.aborted) return aborted();
      const waiter: Waiter = {
        keys: unique,
        signal,
        aborted,
        start: () => {
          this.running++;
          for (const k of unique) this.busy.set(k, (this.busy.get(k) ?? 0) + 1);
          task().then(resolve, reject).finally(() => {
            this.running--;
            for (const k of unique) this.busy.set(k, this.busy.get(k)! - 1);
            this.pump();
          });
        },
      };
      this.queue.push(waiter);
      if (signal) this.watch(signal);
      this.pump();
    });
  }

  private watch(signal: AbortSignal): void {
    if (this.watched.has(signal)) return;
    const onAbort = () => {
      this.watched.delete(signal);
      for (const w of this.queue.filter((q) => q.signal === signal)) {
        this.queue.splice(this.queue.indexOf(w), 1);
        w.aborted();
      }
    };
    this.watched.set(signal, onAbort);
    signal.addEventListener('abort', onAbort, { once: true });
  }

  /** The signal's listener goes as soon as no run waits on it. */
  private unwatch(signal: AbortSignal | undefined): void {
    const onAbort = signal && this.watched.get(signal);
    if (!onAbort || this.queue.some((q) => q.signal === signal)) return;
    signal.removeEventListener('abort', onAbort);
    this.watched.delete(signal);
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
      this.unwatch(w.signal);
      w.start();
    }
  }
}

interface Waiter {
  keys: string[];
  signal: AbortSignal | undefined;
  aborted(): void;
  start(): void;
}
