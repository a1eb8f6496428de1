// Human progress on stderr: a line per event that matters (see core/engine/describe.ts) and, on a terminal, a live
// footer with one line per agent, redrawn at most every 100 ms.

import { describeEvent, secs } from '../core/status/describe';
import { oneLine } from '../core/util/text';
import type { RunEvent } from '../core/engine/events';
import type { AgentState, RunState } from '../core/engine/run-state';

/** The last `max` characters of a stream, on one line: what the agent wrote most recently. */
function newest(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(flat.length - max) : flat;
}

function agentLine(a: AgentState, width: number): string {
  let detail: string;
  switch (a.status) {
    case 'streaming':
      detail = a.retry ? `retrying in ${secs(a.retry.delayMs)}` : a.streamTail.length ? `"…${newest(a.streamTail, 59)}"` : 'thinking';
      break;
    case 'answered':
      detail = `answered ${a.latestAnswerLabel}`;
      break;
    case 'voted':
      detail = `voted for ${a.currentVote?.targetLabel ?? '?'}`;
      break;
    case 'failed':
      detail = `failed: ${oneLine(a.error ?? '', 60)}`;
      break;
    default:
      detail = a.status;
  }
  const tokens = a.usage.calls ? ` · ${a.usage.inputTokens + a.usage.outputTokens} tok` : '';
  const max = Math.max(20, width - 1);
  const head = `  ${a.label.padEnd(7)} ${oneLine(a.id, 12).padEnd(12)} `;
  return (head + oneLine(`${detail}${tokens}`, Math.max(1, max - head.length))).slice(0, max);
}

/** One live line per agent, shown under the progress log on a terminal. */
export function footerLines(state: RunState, width: number): string[] {
  return state.agents.map((a) => agentLine(a, width));
}

export class ProgressPrinter {
  private shownLines = 0;
  private lastFooter = 0;

  constructor(private readonly out: NodeJS.WriteStream) {}

  private get live(): boolean {
    return Boolean(this.out.isTTY);
  }

  onEvent(event: RunEvent, state: RunState): void {
    const line = describeEvent(event, state);
    const redraw = this.live && event.type !== 'run_ended' && (line !== undefined || event.type === 'turn_started' || Date.now() - this.lastFooter > 100);
    if (line !== undefined) {
      this.clearFooter();
      this.out.write(`${line}\n`);
    }
    if (redraw) this.drawFooter(state);
  }

  private drawFooter(state: RunState): void {
    this.clearFooter();
    this.lastFooter = Date.now();
    const lines = footerLines(state, this.out.columns ?? 100);
    this.out.write(lines.join('\n'));
    this.shownLines = lines.length;
  }

  /** Erases the live lines, leaving the cursor where the first one was. */
  clearFooter(): void {
    if (this.shownLines === 0) return;
    this.out.write('\r\x1b[2K' + '\x1b[1A\x1b[2K'.repeat(this.shownLines - 1));
    this.shownLines = 0;
  }
}
