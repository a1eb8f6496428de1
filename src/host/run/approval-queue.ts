// The window's one queue of command approvals: every agent's request waits here, oldest first, until the user
// answers it in the notification or in the vote viewer (the same request either way), or the run or agent stops
// (its signal aborts). At most one notification is up for the queue: the head's, naming how many more wait; when
// it is answered, or its request leaves the queue some other way, the next head gets one. Free of `vscode`: the
// notification is a port (ask.ts), so the logic runs in plain Node tests.

import type { ApprovalChoice, PendingApproval } from '../../protocol/messages';

export type { ApprovalChoice, PendingApproval };

export interface ApprovalToast {
  /** Shows a notification for `head`, `more` others waiting; resolves with the choice, or undefined when closed. */
  show(head: PendingApproval, more: number): PromiseLike<ApprovalChoice | undefined>;
}

interface Entry {
  request: PendingApproval;
  settle(choice: ApprovalChoice | undefined): void;
}

export class ApprovalQueue {
  private readonly entries: Entry[] = [];
  private readonly listeners = new Set<() => void>();
  /** The request whose notification is up, while it waits. */
  private toastFor: string | undefined;
  private nextId = 0;

  constructor(private readonly toast: ApprovalToast) {}

  /** Waiting requests, oldest first. */
  get pending(): PendingApproval[] {
    return this.entries.map((e) => e.request);
  }

  /** The queue changed (a request came, was answered, or left). */
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Queues a request; resolves with the user's choice, or undefined when `signal` aborted first. */
  ask(request: Omit<PendingApproval, 'id'>, signal: AbortSignal): Promise<ApprovalChoice | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const id = `approval-${++this.nextId}`;
      const onAbort = () => this.remove(id, undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      this.entries.push({
        request: { id, ...request },
        settle: (choice) => {
          signal.removeEventListener('abort', onAbort);
          resolve(choice);
        },
      });
      this.changed();
    });
  }

  /**
   * Answers request `id`; false when it is no longer waiting (answered elsewhere, or its run or agent stopped) or
   * the choice does not fit it ("for this run" is offered for sandboxed commands only).
   */
  answer(id: string, choice: ApprovalChoice): boolean {
    const entry = this.entries.find((e) => e.request.id === id);
    if (!entry || (choice === 'allowRun' && !entry.request.sandboxed)) return false;
    return this.remove(id, choice);
  }

  /** Answers every waiting request that `which` picks (e.g. the rest of a run allowed "for this run"). */
  answerAll(which: (request: PendingApproval) => boolean, choice: ApprovalChoice): void {
    for (const e of this.entries.filter((x) => which(x.request))) this.answer(e.request.id, choice);
  }

  private remove(id: string, choice: ApprovalChoice | undefined): boolean {
    const i = this.entries.findIndex((e) => e.request.id === id);
    if (i < 0) return false;
    const [entry] = this.entries.splice(i, 1);
    entry.settle(choice);
    this.changed();
    return true;
  }

  private changed(): void {
    this.showHead();
    for (const l of [...this.listeners]) l();
  }

  private showHead(): void {
    if (this.toastFor !== undefined && this.entries.some((e) => e.request.id === this.toastFor)) return;
    this.toastFor = undefined;
    const head = this.entries[0];
    if (!head) return;
    const id = head.request.id;
    this.toastFor = id;
    // A notification cannot be withdrawn: one whose request was answered in the viewer, or whose run or agent
    // stopped, stays up and can still be clicked. Its request has left the queue by then, so `answer` ignores the
    // late click (it never answers the next request). Closing the notification denies, as it always did.
    const done = (choice: ApprovalChoice | undefined) => {
      if (this.toastFor === id) this.toastFor = undefined;
      if (!this.answer(id, choice ?? 'deny')) this.showHead();
    };
    Promise.resolve(this.toast.show(head.request, this.entries.length - 1)).then(done, () => done(undefined));
  }
}
