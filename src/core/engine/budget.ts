// The run's budget (cost, tokens, calls). Before every model call the guard checks that what is spent, what
// in-flight calls may still spend, and what this call may spend stay within every cap; the first call that would
// cross one is not started, and neither is any after it. In-flight calls finish: they were admitted within budget.

import type { Budget, Pricing } from '../config/types';
import type { ModelRequest, Usage } from '../providers/types';
import { costUsd } from '../usage/cost';
import { CHARS_PER_TOKEN, DEFAULT_ANSWER_TOKENS } from '../usage/tokens';
import type { BudgetLimit } from './events';

export class BudgetStop extends Error {
  constructor(readonly limit: BudgetLimit) {
    super(`budget reached (${limit})`);
  }
}

export interface Reservation {
  tokens: number;
  costUsd: number;
  /** The prompt size by the chars rule, before calibration, to learn how far off the rule is. */
  rawPromptTokens: number;
}

interface Spent {
  costUsd: number;
  totalTokens: number;
  calls: number;
}

export interface BudgetReached {
  limit: BudgetLimit;
  limitValue: number;
  spent: Spent;
}

/** Per tool call: its JSON framing (id, type, braces) beyond the name and the arguments. */
const TOOL_CALL_OVERHEAD_CHARS = 40;

/** Prompt size by the engine's chars-per-token rule; the server's count arrives with the usage afterwards. */
export function estimatePromptTokens(request: ModelRequest): number {
  let chars = request.system.length + JSON.stringify(request.tools).length;
  for (const m of request.messages) {
    chars += m.content.length;
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) chars += c.name.length + c.arguments.length + c.id.length + TOOL_CALL_OVERHEAD_CHARS;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export class BudgetGuard {
  private readonly spent: Spent = { costUsd: 0, totalTokens: 0, calls: 0 };
  private readonly inFlight: Spent = { costUsd: 0, totalTokens: 0, calls: 0 };
  private outputSeen = { tokens: 0, calls: 0 };
  /** Reported vs. chars-rule prompt tokens so far: servers' tokenizers differ from the rule, so predictions learn. */
  private promptSeen = { reported: 0, predicted: 0 };
  reached: BudgetReached | null = null;

  constructor(private readonly budget: Budget | undefined, private readonly onReached: (r: BudgetReached) => void) {}

  /** Admits one call or throws BudgetStop. Output is predicted from the calls so far (or a typical answer). */
  reserve(request: ModelRequest, pricing: Pricing | null): Reservation {
    if (this.reached) throw new BudgetStop(this.reached.limit);
    // Without a token or cost cap there is nothing to predict: skip the estimate (it walks the whole conversation).
    if (this.budget?.maxTotalTokens === undefined && this.budget?.maxCostUsd === undefined) {
      return this.admit({ tokens: 0, costUsd: 0, rawPromptTokens: 0 });
    }
    const output = this.outputSeen.calls ? Math.ceil(this.outputSeen.tokens / this.outputSeen.calls) : DEFAULT_ANSWER_TOKENS;
    const rawPromptTokens = estimatePromptTokens(request);
    const scale = this.promptSeen.predicted > 0 ? this.promptSeen.reported / this.promptSeen.predicted : 1;
    const input = Math.ceil(rawPromptTokens * scale);
    const r: Reservation = {
      tokens: input + output,
      costUsd: pricing ? costUsd({ inputTokens: input, cachedInputTokens: 0, outputTokens: output }, pricing) : 0,
      rawPromptTokens,
    };
    return this.admit(r);
  }

  private admit(r: Reservation): Reservation {
    const b = this.budget;
    const crossed: [BudgetLimit, number | undefined, number][] = [
      ['max_calls', b?.maxCalls, this.spent.calls + this.inFlight.calls + 1],
      ['max_total_tokens', b?.maxTotalTokens, this.spent.totalTokens + this.inFlight.totalTokens + r.tokens],
      ['max_cost_usd', b?.maxCostUsd, this.spent.costUsd + this.inFlight.costUsd + r.costUsd],
    ];
    for (const [limit, cap, projected] of crossed) {
      if (cap !== undefined && projected > cap) {
        this.reached = { limit, limitValue: cap, spent: { ...this.spent } };
        this.onReached(this.reached);
        throw new BudgetStop(limit);
      }
    }
    this.inFlight.calls += 1;
    this.inFlight.totalTokens += r.tokens;
    this.inFlight.costUsd += r.costUsd;
    return r;
  }

  /** Replaces a reservation by what the call really cost (an attempt that failed still counts as a call). */
  settle(r: Reservation, usage: Usage | undefined, cost: number | null): void {
    this.inFlight.calls -= 1;
    this.inFlight.totalTokens -= r.tokens;
    this.inFlight.costUsd -= r.costUsd;
    this.spent.calls += 1;
    if (!usage) return;
    this.spent.totalTokens += usage.inputTokens + usage.outputTokens;
    this.spent.costUsd += cost ?? 0;
    this.outputSeen.tokens += usage.outputTokens;
    this.outputSeen.calls += 1;
    // Calibrate only on calls that were estimated (a calls-only budget skips the estimate).
    if (r.rawPromptTokens > 0) {
      this.promptSeen.reported += usage.inputTokens;
      this.promptSeen.predicted += r.rawPromptTokens;
    }
  }
}
