// What a call of the massgen_run language-model tool will do, in words for its confirmation: the team, what it may
// cost (an estimate for priced models, a request count for VS Code chat models, which the user's plan bills), and
// whether the agents work on copies of a folder. Pure (no `vscode`: its translations come in as `l10n`), so it is
// tested in plain Node.

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

/** VS Code's translation function: `vscode.l10n` in the extension. */
export interface L10n {
  t(message: string, ...args: Array<string | number | boolean>): string;
}

/** User-given names and the question as literal text in the markdown of the confirmation. */
export const escapeMarkdown = (text: string) => text.replace(/[\\`*_[\]()#|<>~]/g, '\\$&');

const usd = (n: number) => `$${n < 0.01 ? n.toFixed(4) : n.toFixed(2)}`;

/** Local servers without a known price cost nothing; chat models are billed by the user's plan; the rest per token. */
function spending(config: MassGenConfig, question: string, l10n: L10n): string[] {
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
    const range = estimate.costUsd && [usd(estimate.costUsd.min), usd(estimate.costUsd.max)];
    const cost = !range
      ? l10n.t('cost unknown (no known price for these models)')
      : estimate.costUsd?.partial
        ? l10n.t('about {0}–{1} plus the models without a known price', ...range)
        : l10n.t('about {0}–{1}', ...range);
    lines.push(l10n.t('Paid models ({0}): {1}.', escapeMarkdown(paid.map((a) => a.agent.backend.model).join(', ')), cost));
  }
  if (chatModels.length) {
    const models = escapeMarkdown([...new Set(chatModels.map((a) => a.agent.backend.model))].join(', '));
    lines.push(l10n.t('VS Code chat models ({0}): {1} requests in all, billed by your plan (e.g. Copilot premium requests).', models, calls));
  }
  const budget = config.orchestrator.budget;
  if (budget?.maxCostUsd !== undefined) lines.push(l10n.t('The run stops before it would cost more than {0} (massgen.budget.maxCostUsd).', usd(budget.maxCostUsd)));
  return lines;
}

export function planInvocation(config: MassGenConfig, input: MassGenToolInput, workspace: { name: string } | undefined, commands: boolean, l10n: L10n): InvocationPlan {
  const team = config.agents.map((a) => escapeMarkdown(`${a.id} (${a.backend.type} ${a.backend.model})`));
  const spends = spending(config, input.question, l10n);
  const folder = workspace && escapeMarkdown(workspace.name);
  const files = folder
    ? [
        commands
          ? l10n.t("Each agent works on its own copy of **{0}** and may run commands there (each asks your approval). Your folder is not changed: the winner's change is returned for you to review, and this tool never applies it.", folder)
          : l10n.t("Each agent works on its own copy of **{0}**. Your folder is not changed: the winner's change is returned for you to review, and this tool never applies it.", folder),
      ]
    : [];
  const message = [
    team.length === 1 ? l10n.t('**1 agent:** {0}', team[0]) : l10n.t('**{0} agents:** {1}', team.length, team.join(', ')),
    ...spends,
    ...files,
    l10n.t('**Question:** {0}', escapeMarkdown(input.question.slice(0, 500))),
  ].join('\n\n');
  return { team, spending: spends, message, confirm: spends.length > 0 || workspace !== undefined };
}
