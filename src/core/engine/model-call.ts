// One model call with the engine's retry policy: the budget admits it first, deltas stream out as events, usage
// and cost are recorded, and transient provider errors are retried with back-off (honouring retry-after). An agent
// in a long back-off is "unavailable": it does not hold the others (see the orchestrator's coordinate). A call that
// ends early (cancelled, timed out, cut) after streaming is still billed by the provider: its usage is estimated.

import { ProviderError, type ModelRequest, type ModelResponse, type Usage } from '../providers/types';
import { costUsd } from '../usage/cost';
import { CHARS_PER_TOKEN } from '../usage/tokens';
import { raceAbort } from '../util/abort';
import { sleep } from '../util/sleep';
import { estimatePromptTokens } from './budget';
import { sharedStartKey } from './prefix-gate';
import { asProviderError, retryDelayMs } from './retry';
import type { AgentRuntime, RunContext } from './run-context';

/**
 * A back-off this long, or a call failing a second time in a row (a server that keeps answering 500), makes the
 * agent unavailable rather than just slow. A single short retry is still waited for: its answer is likely to come.
 */
export const UNAVAILABLE_BACKOFF_MS = 5000;

/** What a call that streamed `chars` characters before it ended is billed, by the engine's rules of thumb. */
export function partialUsage(request: ModelRequest, chars: number): Usage {
  return { inputTokens: estimatePromptTokens(request), cachedInputTokens: 0, outputTokens: Math.ceil(chars / CHARS_PER_TOKEN), estimated: true };
}

export async function callModel(ctx: RunContext, agent: AgentRuntime, request: ModelRequest, signal: AbortSignal, phase: 'coordination' | 'final'): Promise<ModelResponse> {
  const agentId = agent.spec.id;
  const { provider } = agent.spec;
  const shared = sharedStartKey(request, provider.description, provider.promptCache);
  for (let attempt = 1; ; attempt++) {
    const reservation = ctx.budget.reserve(request, agent.spec.pricing ?? null);
    // Another agent sending the same start first: wait until the cache holds it (see prefix-gate.ts).
    const pass = shared ? await ctx.prefixGate.enter(shared, signal) : null;
    let begun = false;
    let streamed = 0;
    try {
      // Cancelled while it waited: the request is never sent.
      if (signal.aborted) throw new ProviderError('aborted', 'cancelled before the request was sent');
      // Raced as well: a provider that ignores its signal must not hold a cancelled or timed-out turn.
      const response = await raceAbort(provider.complete(request, {
        signal,
        // A provider that ignores its signal may still stream after the race gave up on it: those parts belong to
        // no turn any more (a retried turn has its own call).
        onStarted: () => {
          if (signal.aborted) return;
          begun = true;
          pass?.begun();
        },
        onDelta: (d) => {
          if (signal.aborted) return;
          switch (d.type) {
            case 'text':
              streamed += d.text.length;
              return ctx.emit({ type: 'text_delta', agentId, text: d.text });
            case 'reasoning':
              streamed += d.text.length;
              return ctx.emit({ type: 'reasoning_delta', agentId, text: d.text });
            // A coding agent's program at work with its own tools.
            case 'tool_call':
              return ctx.emit({ type: 'tool_call', agentId, callId: d.id, name: d.name, arguments: d.arguments });
            case 'tool_result':
              return ctx.emit({ type: 'tool_result', agentId, callId: d.id, name: d.name, ok: d.ok, summary: d.summary });
          }
        },
      }), signal);
      pass?.ended(begun);
      agent.unavailable = null;
      const cost = response.usage && agent.spec.pricing ? costUsd(response.usage, agent.spec.pricing) : null;
      ctx.budget.settle(reservation, response.usage, cost);
      if (response.usage) ctx.emit({ type: 'usage', agentId, usage: response.usage, costUsd: cost, phase });
      return response;
    } catch (err) {
      const error = asProviderError(err);
      // A reply the server could not parse was written all the same: the prompt was read and the model wrote at least
      // what the server quoted of it.
      const unparsed = error.kind === 'unparsed_output';
      pass?.ended(begun || unparsed);
      // Once the reply has begun the server has read the prompt, even when what it streamed was a tool call, which
      // reaches the engine only whole: that call is billed too.
      const partial = begun || streamed > 0 || unparsed ? partialUsage(request, streamed + (error.output?.length ?? 0)) : undefined;
      const cost = partial && agent.spec.pricing ? costUsd(partial, agent.spec.pricing) : null;
      ctx.budget.settle(reservation, partial, cost);
      if (partial) ctx.emit({ type: 'usage', agentId, usage: partial, costUsd: cost, phase });
      if (signal.aborted || error.kind === 'aborted') throw error;
      if (!error.retryable || attempt >= ctx.retry.maxAttemptsPerCall) throw error;
      const delayMs = retryDelayMs(attempt, ctx.retry, error.retryAfterMs, ctx.options.random);
      ctx.emit({ type: 'retry', agentId, attempt: attempt + 1, delayMs, error: error.message });
      if (delayMs < UNAVAILABLE_BACKOFF_MS && attempt < 2) {
        await sleep(delayMs, signal, ctx.clock);
        continue;
      }
      agent.unavailable = { since: agent.unavailable?.since ?? ctx.clock.now(), error: error.message, ...(error.unreachable ? { unreachable: error.unreachable } : {}) };
      const wasSettled = agent.settled;
      ctx.setSettled(agent, true);
      try {
        await sleep(delayMs, signal, ctx.clock);
      } finally {
        ctx.setSettled(agent, wasSettled);
      }
    }
  }
}
