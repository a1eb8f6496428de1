// An in-process provider driven by a script: the engine's tests and benchmarks use it to make agents answer, vote,
// misbehave or fail on cue, and to inspect exactly what each request contained.

import type { PromptCachePolicy } from '../usage/cache';
import type { CompleteOptions, ModelProvider, ModelRequest, ModelResponse, Usage } from './types';
import { ProviderError } from './types';
import { performance } from 'node:perf_hooks';
import { realClock, type Clock } from '../util/clock';
import { sleep } from '../util/sleep';

export interface ScriptedReply {
  text?: string;
  reasoning?: string;
  toolCalls?: { name: string; arguments: string | Record<string, unknown>; id?: string }[];
  usage?: Usage;
  /** Resolve after this long (abortable), streaming the text in four deltas meanwhile: it starts after a quarter. */
  delayMs?: number;
  /** Fail this call instead of answering. */
  error?: ProviderError;
}

/** Decides the reply to the n-th call (0-based) given the request the engine sent. */
export type Script = (request: ModelRequest, callIndex: number) => ScriptedReply | Promise<ScriptedReply>;

export class ScriptedProvider implements ModelProvider {
  readonly description: string;
  readonly requests: ModelRequest[] = [];
  /** The abort signal of every call, to check that cancel and timeouts reach in-flight requests. */
  readonly signals: AbortSignal[] = [];
  /** When each call's response began (performance.now(), at its onStarted), for the benchmark's cache timing. */
  readonly began: number[] = [];
  private calls = 0;

  constructor(
    readonly model: string,
    private readonly script: Script,
    /** The cache the scripted backend stands for (the benchmark prices runs under each provider's). */
    readonly promptCache?: PromptCachePolicy,
    /** What `delayMs` waits on: the run's clock, so a test's fake clock moves the replies too. */
    private readonly clock: Clock = realClock,
  ) {
    this.description = `scripted ${model}`;
  }

  get callCount(): number {
    return this.calls;
  }

  async complete(request: ModelRequest, { signal, onDelta, onStarted }: CompleteOptions): Promise<ModelResponse> {
    const index = this.calls++;
    this.requests.push(structuredClone(request));
    this.signals.push(signal);
    if (signal.aborted) throw new ProviderError('aborted', 'aborted');
    const reply = await this.script(request, index);
    const text = reply.text ?? '';
    const started = () => {
      this.began[index] ??= performance.now();
      onStarted?.();
    };
    if (reply.delayMs) {
      const pieces = 4;
      for (let i = 0; i < pieces; i++) {
        await sleep(reply.delayMs / pieces, signal, this.clock).catch(() => {
          throw new ProviderError('aborted', 'aborted');
        });
        started();
        const piece = text.slice(Math.floor((i * text.length) / pieces), Math.floor(((i + 1) * text.length) / pieces));
        if (piece) onDelta?.({ type: 'text', text: piece });
      }
    } else if (!reply.error || text) {
      // An error with nothing before it is an HTTP error status: the reply never began (nothing billed).
      started();
      if (text) onDelta?.({ type: 'text', text });
    }
    if (reply.error) throw reply.error;
    if (reply.reasoning) onDelta?.({ type: 'reasoning', text: reply.reasoning });
    const toolCalls = (reply.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? `call_${this.model}_${index}_${i}`,
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    }));
    return {
      text,
      reasoning: reply.reasoning,
      toolCalls,
      usage: reply.usage,
      stopReason: toolCalls.length ? 'tool_calls' : 'stop',
    };
  }
}

/** Reply helpers for scripts. */
export const reply = {
  answer: (content: string, extra: Partial<ScriptedReply> = {}): ScriptedReply => ({ ...extra, toolCalls: [{ name: 'new_answer', arguments: { content } }] }),
  vote: (agentId: string, reason = 'best answer', extra: Partial<ScriptedReply> = {}): ScriptedReply => ({
    ...extra,
    toolCalls: [{ name: 'vote', arguments: { agent_id: agentId, reason } }],
  }),
  text: (text: string): ScriptedReply => ({ text }),
};

/** True when the request's latest user-side content lists answers (i.e. the agent can vote). */
export function lastUserText(request: ModelRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const m = request.messages[i];
    if (m.role === 'user') return m.content;
  }
  return '';
}

/** Everything the model was sent in this request, as one string, for "did the model see X" assertions. */
export function requestText(request: ModelRequest): string {
  return [request.system, ...request.messages.map((m) => m.content)].join('\n');
}
