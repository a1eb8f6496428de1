// One fake OpenAI-compatible server that plays the scripted behaviours (lib/behaviours.ts) for two real systems in
// turn, our CLI and upstream MassGen, reading each request the way a model would: whose it is (its `model`, one per
// agent: bench-agentK is anonymous agentK in both systems), which answers it shows (ours: `<agentK> … <end of
// agentK>` blocks; upstream: versioned `<agentK.V> … <end of agentK.V>` blocks in its CURRENT ANSWERS), whether only
// `vote` is offered, and upstream's final presentation (only new_answer offered, "VOTING RESULTS:" in the user
// message), which it answers with the winner's latest text. Each reply is a tool call streamed over a scripted time
// (an answer takes longer than a vote; agents finish one after another). Every request is logged with its body, when
// it arrived, when its response began and when it was written out (or cut off by the client).

import { performance } from 'node:perf_hooks';
import { answerText, durationMs, viewOfRequest, type Behaviour, type Decision, type View } from './behaviours';
import { contentText, requestOfWire, toolNames } from './wire-request';
import { startFakeOpenAI, type FakeChatBody, type FakeReply, type ReplyOutcome } from '../../test/fakes/openai-server';
import type { ModelRequest } from '../../src/core/providers/types';

export type PeerSystem = 'ours' | 'upstream';
export type CallKind = 'answer' | 'vote' | 'presentation' | 'other';

/** The scripted time of a call: behaviours.ts's durationMs scaled up, so process overheads do not dominate. */
export const DELAY_SCALE = 50;

/** The `model` that stands for anonymous agentK (1-based) in both systems' configs. */
export const modelOf = (k: number) => `bench-agent${k}`;

export interface PeerCall {
  system: PeerSystem;
  /** The agent's anonymous label, agentK. */
  label: string;
  kind: CallKind;
  voteOnly: boolean;
  /** Labels whose answers the request showed. */
  seen: string[];
  /** The tool call (or text) the fake replied with. */
  reply: string;
  /** Scripted time of the call. */
  delayMs: number;
  /** ms on the bench's clock (performance.now()): arrival, response begun (first chunk), written out / cut. */
  arrived: number;
  began: number;
  finished: number | null;
  outcome: ReplyOutcome | null;
  body: FakeChatBody;
  request: ModelRequest;
}

export interface ScriptedPeers {
  baseUrl: string;
  /** Starts a cell: who plays, which behaviour, how many agents. Clears the log. */
  play(system: PeerSystem, behaviour: Behaviour, n: number): void;
  /** This cell's calls, in arrival order. */
  readonly calls: PeerCall[];
  /** Requests it could not read (unknown model, a body of the other system), with why. */
  readonly problems: string[];
  /** Resolves when every logged reply has ended (written out or cut). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const labelNumber = (label: string) => Number(label.replace(/\D/g, ''));

/** What an upstream request shows the agent: the latest versioned block of each label in its user messages. */
export function viewOfUpstreamRequest(label: string, body: FakeChatBody): View {
  const visible = new Map<string, string>();
  const block = /<(agent\d+)\.(\d+)>\s?([\s\S]*?)\s?<end of \1\.\2>/g;
  const version = new Map<string, number>();
  for (const m of body.messages) {
    if (m.role !== 'user') continue;
    for (const b of contentText(m.content).matchAll(block)) {
      const v = Number(b[2]);
      if (v >= (version.get(b[1]) ?? 0)) {
        version.set(b[1], v);
        visible.set(b[1], b[3].trim());
      }
    }
  }
  const ordered = new Map([...visible.entries()].sort((a, b) => labelNumber(a[0]) - labelNumber(b[0])));
  // A fresh conversation every round: the agent knows its own answers from the board (the version in its text).
  const shown = Number(/^Answer agent\d+\.(\d+):/.exec(visible.get(label) ?? '')?.[1] ?? 0);
  return { label, visible: ordered, ownAnswers: Math.max(shown, version.get(label) ?? 0), voteOnly: !toolNames(body).includes('new_answer') };
}

/** Upstream's final presentation: the winner is asked once more, with only new_answer offered and the voting results. */
export function isUpstreamPresentation(body: FakeChatBody): boolean {
  const tools = toolNames(body);
  return tools.includes('new_answer') && !tools.includes('vote') && body.messages.some((m) => m.role === 'user' && contentText(m.content).includes('VOTING RESULTS:'));
}

/** Which system's request this is, from its own markers: upstream always adds its background-job helper tools. */
export function systemOf(body: FakeChatBody): PeerSystem {
  return toolNames(body).some((t) => t.startsWith('custom_tool__')) ? 'upstream' : 'ours';
}

/**
 * A streamed tool call over `delayMs`: `ttftMs` before the first chunk, the rest spread evenly over the chunks after
 * it (the call's header, its arguments in a few pieces, the finish chunk, and the usage chunk when asked for), so the
 * reply is written out `delayMs` after it was asked for, give or take the timers.
 */
function timedToolCall(name: string, args: Record<string, unknown>, delayMs: number, ttftMs: number, withUsage: boolean): FakeReply {
  const text = JSON.stringify(args);
  const chunkSize = Math.max(1, Math.ceil(text.length / 4));
  const later = 1 + Math.ceil(text.length / chunkSize) + 1 + (withUsage ? 1 : 0);
  return { toolCalls: [{ name, arguments: args }], chunkSize, ttftMs, delayMsPerChunk: (delayMs - ttftMs) / later };
}

export async function startScriptedPeers(): Promise<ScriptedPeers> {
  let system: PeerSystem = 'ours';
  let behaviour: Behaviour | null = null;
  let n = 0;
  let calls: PeerCall[] = [];
  let problems: string[] = [];
  let pending: Promise<unknown>[] = [];
  /** The latest answer each label gave in this cell (what a presenter repeats). */
  let latest = new Map<string, string>();

  const server = await startFakeOpenAI((record) => {
    const arrived = performance.now();
    const body = record.body;
    const k = /^bench-agent(\d+)$/.exec(body.model)?.[1];
    if (!behaviour || !k || Number(k) < 1 || Number(k) > n) {
      problems.push(`unknown model '${body.model}' (cell of ${n} agents)`);
      return { error: { status: 404, message: `The model '${body.model}' does not exist.` } };
    }
    const sender = systemOf(body);
    if (sender !== system) problems.push(`a request of ${sender} while ${system} plays (model ${body.model})`);
    const label = `agent${k}`;
    const index = Number(k) - 1;
    const request = requestOfWire(body);
    const tools = toolNames(body);
    let kind: CallKind;
    let decision: Decision | null = null;
    let seen: string[] = [];
    let voteOnly = false;
    if (system === 'upstream' && isUpstreamPresentation(body)) {
      kind = 'presentation';
      decision = { kind: 'answer', content: latest.get(label) ?? answerText(label, 1) };
    } else if (tools.includes('vote') || tools.includes('new_answer')) {
      const view = system === 'upstream' ? viewOfUpstreamRequest(label, body) : viewOfRequest(label, request);
      seen = [...view.visible.keys()];
      voteOnly = view.voteOnly;
      decision = behaviour(view);
      kind = decision.kind;
    } else {
      kind = 'other';
    }
    const delayMs = DELAY_SCALE * durationMs(index, kind === 'vote' ? 'vote' : 'answer');
    const ttftMs = delayMs / 4;
    const withUsage = body.stream_options?.include_usage === true;
    let reply: FakeReply;
    let replied: string;
    if (decision?.kind === 'answer') {
      if (kind === 'answer') latest.set(label, decision.content);
      reply = timedToolCall('new_answer', { content: decision.content }, delayMs, ttftMs, withUsage);
      replied = `new_answer ${decision.content.slice(0, 24)}…`;
    } else if (decision?.kind === 'vote') {
      reply = timedToolCall('vote', { agent_id: decision.target, reason: decision.reason }, delayMs, ttftMs, withUsage);
      replied = `vote ${decision.target}`;
    } else {
      // Not a coordination call (no coordination tool offered): a short text, so the caller can go on.
      reply = { text: 'OK.', ttftMs, delayMsPerChunk: (delayMs - ttftMs) / (withUsage ? 3 : 2) };
      replied = 'text';
    }
    const call: PeerCall = { system: sender, label, kind, voteOnly, seen, reply: replied, delayMs, arrived, began: arrived + ttftMs, finished: null, outcome: null, body, request };
    calls.push(call);
    pending.push(
      record.outcome.then((outcome) => {
        call.finished = performance.now();
        call.outcome = outcome;
        // Cut before its first chunk: the response never began, so no cache could hold its prompt.
        if (outcome === 'client_closed' && call.finished < call.began) call.began = Infinity;
      }),
    );
    return reply;
  });

  return {
    baseUrl: server.baseUrl,
    play(s, b, size) {
      system = s;
      behaviour = b;
      n = size;
      calls = [];
      problems = [];
      pending = [];
      latest = new Map();
    },
    get calls() {
      return calls;
    },
    get problems() {
      return problems;
    },
    async settled() {
      await Promise.all(pending);
    },
    close: () => server.close(),
  };
}

/**
 * The physical bound of a cell's run: the longest chain of calls, each sent after the previous one was written out,
 * summed over their scripted times. Nothing can decide sooner than the chain of calls it waited for; the chain is the
 * longest one the log allows (so the bound is never below the real critical path, and never above the run's time).
 */
export function criticalPathMs(calls: readonly PeerCall[]): number {
  const done = calls.filter((c) => c.finished !== null).sort((a, b) => a.finished! - b.finished!);
  const best: number[] = [];
  done.forEach((c, i) => {
    let before = 0;
    for (let j = 0; j < i; j++) if (done[j].finished! <= c.arrived) before = Math.max(before, best[j]);
    // A call the client cut short took only as long as it ran.
    best.push(before + (c.outcome === 'completed' ? c.delayMs : Math.min(c.delayMs, c.finished! - c.arrived)));
  });
  return Math.max(0, ...best);
}
