// Notes to the agents while a run goes: typed on the terminal, or one per line on stdin with --notes-from-stdin
// (for programs driving the CLI). A line is a note to every agent; `@agentK text` is for one agent; `/change text` is
// a note that changes the task (the current votes are asked again); `/answer` takes the best answer now; `/escalate`
// calls the next escalation stage (a command, not a note: the agents' text is never read for it).

import { createInterface } from 'node:readline';
import type { RunSession } from '../core/run/session';
import { errorMessage } from '../core/util/errors';

export type NoteLine =
  | { kind: 'empty' }
  | { kind: 'answer' }
  | { kind: 'escalate' }
  | { kind: 'note'; text: string; agentLabel?: string; changesTask: boolean }
  | { kind: 'unknown'; command: string };

/** What one line asks for. Pure. */
export function parseNoteLine(raw: string): NoteLine {
  let line = raw.trim();
  if (!line) return { kind: 'empty' };
  if (line === '/answer') return { kind: 'answer' };
  if (line === '/escalate') return { kind: 'escalate' };
  let changesTask = false;
  if (line.startsWith('/')) {
    const [command] = line.split(/\s/, 1);
    if (command !== '/change') return { kind: 'unknown', command };
    changesTask = true;
    line = line.slice(command.length).trim();
  }
  if (/^@agent\d+$/i.test(line)) return { kind: 'empty' };
  const to = /^@(agent\d+)\s+([\s\S]*)$/i.exec(line);
  const text = (to ? to[2] : line).trim();
  if (!text) return { kind: 'empty' };
  return { kind: 'note', text, changesTask, ...(to ? { agentLabel: to[1].toLowerCase() } : {}) };
}

export const NOTES_HELP = 'Type a note for the agents and press Enter (@agentK … for one agent, /change … if it changes the task, /answer for the best answer now, /escalate to call the next stage).';

/**
 * Reads notes from `input` for the session until `stop()`; each problem (an unknown agent, a note after the end) is
 * reported through `say` and the run goes on.
 */
export function readNotes(input: NodeJS.ReadableStream, session: RunSession, say: (message: string) => void): { stop(): void } {
  const lines = createInterface({ input, terminal: false });
  lines.on('line', (raw) => {
    const parsed = parseNoteLine(raw);
    try {
      if (parsed.kind === 'answer') session.answerNow();
      else if (parsed.kind === 'escalate') session.escalate();
      else if (parsed.kind === 'unknown') say(`unknown command ${parsed.command}: ${NOTES_HELP}`);
      else if (parsed.kind === 'note') {
        const agent = parsed.agentLabel ? session.state.agents.find((a) => a.label === parsed.agentLabel) : undefined;
        if (parsed.agentLabel && !agent) say(`no agent ${parsed.agentLabel} in this run (${session.state.agents.map((a) => a.label).join(', ')}); the note was not sent`);
        else session.note(parsed.text, { agentId: agent?.id, changesTask: parsed.changesTask });
      }
    } catch (err) {
      say(parsed.kind === 'escalate' ? `no stage was called: ${errorMessage(err)}` : `the note was not sent: ${errorMessage(err)}`);
    }
  });
  return {
    stop() {
      lines.close();
      // Let the process exit: stdin would otherwise keep the event loop alive.
      (input as NodeJS.ReadStream).pause?.();
    },
  };
}
