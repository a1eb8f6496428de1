// The run about to start that waits for the user's answer (today the one question: use the project's test command
// as a check?). The vote viewer shows it at once, with the question, until the run has started, so the viewer never
// shows the previous run meanwhile; the answer comes from the viewer or the notification, whichever is first. No
// `vscode` here: the viewer's hub follows it in Node tests too.

import type { PendingRun } from '../../protocol/messages';

export interface PendingHandle {
  /** The question is settled (answered, or the wait ran out): the viewer stops offering its buttons. */
  settled(): void;
  /** The run started (or will not): the viewer stops showing it. */
  dispose(): void;
}

export class PendingRuns {
  private current: { run: PendingRun; onAnswer: (use: boolean) => void } | null = null;
  private readonly listeners = new Set<() => void>();
  private count = 0;

  /** The run waiting now, or null. */
  get shown(): PendingRun | null {
    return this.current?.run ?? null;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Shows a run waiting for the answer to its question (a newer one replaces it); `onAnswer` gets the viewer's. */
  ask(run: Omit<PendingRun, 'id' | 'answered'>, onAnswer: (use: boolean) => void): PendingHandle {
    const entry = { run: { ...run, id: `pending-${++this.count}`, answered: false }, onAnswer };
    this.current = entry;
    this.changed();
    return {
      settled: () => {
        if (this.current !== entry || entry.run.answered) return;
        entry.run = { ...entry.run, answered: true };
        this.changed();
      },
      dispose: () => {
        if (this.current !== entry) return;
        this.current = null;
        this.changed();
      },
    };
  }

  /** The user's answer in the viewer; false when that question is no longer open (settled, or another run's). */
  answer(id: string, use: boolean): boolean {
    const c = this.current;
    if (!c || c.run.id !== id || c.run.answered) return false;
    c.onAnswer(use);
    return true;
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}

/**
 * The first answer to the question: the notification's or the viewer's (true: use it, false: not now, undefined: the
 * notification was dismissed), or undefined when `waited` (the run's patience) resolves first. Answers after that
 * do not change it.
 */
export function firstAnswer(answers: Promise<boolean | undefined>[], waited: Promise<void>): Promise<boolean | undefined> {
  return Promise.race([...answers, waited.then(() => undefined)]);
}
