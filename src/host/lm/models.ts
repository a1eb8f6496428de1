// Finding and naming VS Code chat models: the `vendor/family` specs a `vscode-lm` agent is configured with, the
// selectors they stand for, and what to tell the user when no model matches. Types only from `vscode`, so this loads
// in plain Node.
import type * as vscode from 'vscode';

/** Only `selectChatModels` is needed from `vscode.lm`. */
export type LmNamespace = Pick<typeof vscode.lm, 'selectChatModels'>;

/** The chat models matching `selector` (all models without one). May be empty: see `noChatModelsMessage`. */
export async function selectLmModels(lm: LmNamespace, selector?: vscode.LanguageModelChatSelector): Promise<vscode.LanguageModelChat[]> {
  const models = await lm.selectChatModels(selector && Object.keys(selector).length > 0 ? selector : undefined);
  return [...(models ?? [])];
}

/** No chat model for a zero-config team: the UI offers "Configure Agents" and "Set API Key". */
export class NoChatModelsError extends Error {
  constructor() {
    super(noChatModelsMessage());
  }
}

/** What to tell the user when `selectChatModels` found nothing: what to do, not just what went wrong. */
export function noChatModelsMessage(selector?: vscode.LanguageModelChatSelector): string {
  const filtered = selector && Object.values(selector).some((v) => v !== undefined && v !== '');
  if (filtered) {
    return (
      `No VS Code chat model matches ${describeSelector(selector)}. Check the model name in settings (massgen.agents; ` +
      'use vendor/family, e.g. copilot/gpt-4o), or make sure the extension providing that model is installed and signed in.'
    );
  }
  return (
    'No VS Code chat models are available. Sign in to GitHub Copilot (or install another extension that provides chat models), ' +
    'then run again — or configure agents with API keys in settings (massgen.agents).'
  );
}

/** `vendor/family`, the way a `vscode-lm` agent names its model in the config (e.g. `copilot/gpt-4o`). */
export function lmModelSpec(model: Pick<vscode.LanguageModelChat, 'vendor' | 'family'>): string {
  return `${model.vendor}/${model.family}`;
}

/**
 * The selector for a configured `vscode-lm` model: `vendor/family` (copilot/gpt-4o), a bare family (gpt-4o), or
 * empty / `auto` / `default` / `*` for any model.
 */
export function parseLmModelSpec(spec: string | undefined): vscode.LanguageModelChatSelector {
  const value = (spec ?? '').trim();
  if (!value || /^(auto|default|\*)$/i.test(value)) return {};
  const slash = value.indexOf('/');
  if (slash < 0) return { family: value };
  const vendor = value.slice(0, slash).trim();
  const family = value.slice(slash + 1).trim();
  return { ...(vendor && vendor !== '*' ? { vendor } : {}), ...(family && family !== '*' ? { family } : {}) };
}

/** A selector in words, for messages: `copilot/*`, `copilot/gpt-4o@2024-08 (id x)`, or "any model". */
export function describeSelector(selector: vscode.LanguageModelChatSelector): string {
  const { vendor, family, version, id } = selector;
  if (!vendor && !family && !version && !id) return 'any model';
  let label = `${vendor || '*'}/${family || '*'}`;
  if (version) label += `@${version}`;
  if (id) label += ` (id ${id})`;
  return label;
}
