// What a call of the massgen_run language-model tool will do, in words for its confirmation: the team, what it may
// cost (an estimate for priced models, a request count for VS Code chat models, which the user's plan bills), and
// whether the agents work on copies of a folder. Pure (no `vscode`), so it is tested in plain Node.

import type { MassGenConfig } from '../../core/config/types';
import { backendPricing } from '../../core/usage/cost';
import { estimateRun } from '../../core/usage/estimate';

/** The tool's input, as package.json's `languageModelTools` declares it. */
export interface MassGenToolInput {
  question: string;
  /** Each agent works on its own copy of the workspace folder; the winner's change comes back, never applied. */
  workspace?: boolean;
}

export interface InvocationPlan {
  /** One line per agent: `id (provider model)`, as markdown. */
  team: string[];
  /** Why the run costs money, one markdown line per kind of model; empty for a team of local, unpriced servers. */
  spending: string[];
  /** Markdown for the confirmation (and the hover of the invocation message). */
  message: string;
  /** Spends money or works on files: ask first. */
  confirm: boolean;
}

/** User-given names and the question as literal text in the markdown of the confirmation. */
export const escapeMarkdown = (text: string) => text.replace(/[\\`*_[\]()#|<>~]/g, '\\$&');

const usd = (n: number) => `$${n < 0.01 ? n.toFixed(4) : n.toFixed(2)}`;

/** Local servers without a known price cost nothing; chat models are billed by the user's plan; the rest per token. */
function spending(config: MassGenConfig, question: string): string[] {
  const agents = config.agents.map((a) => ({ agent: a, price: backendPricing(a.backend) }));
  const chatModels = agents.filter((a) => a.price.host === 'vscode-lm');
  const paid = agents.filter((a) => a.price.host !== 'vscode-lm' && (a.price.host === 'api' || a.price.pricing !== null));
  if (!chatModels.length && !paid.length) return [];
  const estimate = estimateRun({
    agents: config.agents.map((a) => ({ id: a.id, model: a.backend.model, pricing: backendPricing(a.backend).pricing, systemPromptChars: a.systemMessage?.length })),
    question,
    maxNewAnswersPerAgent: config.orchestrator.maxNewAnswersPerAgent,
    maxRounds: config.orchestrator.maxRounds,
    finalAnswer: config.orchestrator.finalAnswer,
  });
  const calls = estimate.calls.min === estimate.calls.max ? `${estimate.calls.min}` : `${estimate.calls.min}–${estimate.calls.max}`;
  const lines: string[] = [];
  if (paid.length) {
    const cost = estimate.costUsd ? `about ${usd(estimate.costUsd.min)}–${usd(estimate.costUsd.max)}${estimate.costUsd.partial ? ' plus the models without a known price' : ''}` : 'cost unknown (no known price for these models)';
    lines.push(`Paid models (${escapeMarkdown(paid.map((a) => a.agent.backend.model).join(', '))}): ${cost}.`);
  }
  if (chatModels.length) lines.push(`VS Code chat models (${escapeMarkdown([...new Set(chatModels.map((a) => a.agent.backend.model))].join(', '))}): ${calls} requests in all, billed by your plan (e.g. Copilot premium requests).`);
  const budget = config.orchestrator.budget;
  if (budget?.maxCostUsd !== undefined) lines.push(`The run stops before it would cost more than ${usd(budget.maxCostUsd)} (massgen.budget.maxCostUsd).`);
  return lines;
}

export function planInvocation(config: MassGenConfig, input: MassGenToolInput, workspace: { name: string } | undefined, commands: boolean): InvocationPlan {
  const team = config.agents.map((a) => escapeMarkdown(`${a.id} (${a.backend.type} ${a.backend.model})`));
  const spends = spending(config, input.question);
  const files = workspace
    ? [
        `Each agent works on its own copy of **${escapeMarkdown(workspace.name)}**${commands ? ' and may run commands there (each asks your approval)' : ''}. Your folder is not changed: the winner's change is returned for you to review, and this tool never applies it.`,
      ]
    : [];
  const message = [`**${team.length} agent(s):** ${team.join(', ')}`, ...spends, ...files, `**Question:** ${escapeMarkdown(input.question.slice(0, 500))}`].join('\n\n');
  return { team, spending: spends, message, confirm: spends.length > 0 || workspace !== undefined };
}
