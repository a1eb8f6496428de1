// Scripted agent behaviours, written once and played by both policies: our engine (through the scripted provider,
// reading what each request shows) and the upstream simulator (reading its own state). An agent decides from what
// it sees: which answers are on the board, how many answers it has given, whether it may still answer.

import type { ModelRequest } from '../../src/core/providers/types';

export interface View {
  /** Its own anonymous label, agentK. */
  label: string;
  /** Latest content shown for each label (own answer included), in label order. */
  visible: Map<string, string>;
  /** Answers it has given so far. */
  ownAnswers: number;
  /** It has reached its answer cap: only `vote` is offered. */
  voteOnly: boolean;
}

export type Decision = { kind: 'answer'; content: string } | { kind: 'vote'; target: string; reason: string };
export type Behaviour = (view: View) => Decision;
export type BehaviourName = 'agree' | 'converge' | 'disagree';

/** Characters per answer (~300 tokens at chars/4): a short code answer. */
export const ANSWER_CHARS = 1200;

const WORDS = 'the function parses each line splits on commas trims fields converts numbers validates ranges returns a typed record and reports errors with line numbers'.split(' ');

/** A distinctive, deterministic answer text of about `chars` characters. */
export function answerText(label: string, version: number, chars = ANSWER_CHARS): string {
  let text = `Answer ${label}.${version}:`;
  for (let i = 0; text.length < chars; i++) text += ` ${WORDS[(i * 7 + version * 3 + label.length) % WORDS.length]}`;
  return text.slice(0, chars);
}

const labelNumber = (label: string) => Number(label.replace(/\D/g, ''));

function firstVisible(view: View): string {
  return [...view.visible.keys()].sort((a, b) => labelNumber(a) - labelNumber(b))[0];
}

const answer = (view: View): Decision => ({ kind: 'answer', content: answerText(view.label, view.ownAnswers + 1) });

export const BEHAVIOURS: Record<BehaviourName, Behaviour> = {
  /** Answers while it sees no answer; then votes for the first answer on the board. */
  agree: (v) => (v.visible.size === 0 && !v.voteOnly ? answer(v) : { kind: 'vote', target: firstVisible(v), reason: 'agrees' }),
  /** Answers; revises once after seeing another agent's answer; then votes for the first answer on the board. */
  converge: (v) => {
    if (v.voteOnly) return { kind: 'vote', target: firstVisible(v), reason: 'cap' };
    if (v.visible.size === 0) return answer(v);
    const seesOther = [...v.visible.keys()].some((l) => l !== v.label);
    if (v.ownAnswers === 1 && seesOther) return answer(v);
    return { kind: 'vote', target: firstVisible(v), reason: 'converged' };
  },
  /** Writes a new answer whenever it may; at its answer cap it votes for itself. */
  disagree: (v) => (v.voteOnly ? { kind: 'vote', target: v.visible.has(v.label) ? v.label : firstVisible(v), reason: 'mine' } : answer(v)),
};

/** Model time of one call in the simulation (and, scaled, in the scripted runs): agents finish one after another. */
export function durationMs(index: number, kind: Decision['kind']): number {
  return (kind === 'answer' ? 10 : 3) * (1 + 0.1 * index);
}

/** What our engine's request shows the agent, read the way a model would: from the text it was sent. */
export function viewOfRequest(label: string, request: ModelRequest): View {
  const visible = new Map<string, string>();
  const block = /<(agent\d+)> ([\s\S]*?) <end of \1>/g;
  for (const m of request.messages) {
    if (m.role === 'assistant') continue;
    for (const b of m.content.matchAll(block)) visible.set(b[1], b[2]);
  }
  const ordered = new Map([...visible.entries()].sort((a, b) => labelNumber(a[0]) - labelNumber(b[0])));
  // A compacted prompt no longer holds the agent's earlier answer calls, but its latest answer is on the board under
  // its own label (with the version in its text, as a model recognises its own writing): count from whichever is more.
  const calls = request.messages.filter((m) => m.role === 'assistant' && (m.toolCalls ?? []).some((c) => c.name === 'new_answer')).length;
  const shown = Number(/^Answer agent\d+\.(\d+):/.exec(visible.get(label) ?? '')?.[1] ?? 0);
  const ownAnswers = Math.max(calls, shown);
  return { label, visible: ordered, ownAnswers, voteOnly: !request.tools.some((t) => t.name === 'new_answer') };
}
