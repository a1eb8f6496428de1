// The zero-config team: with no agents configured, a run is made of the chat models the user already has in VS Code.
// Types only from `vscode`, so this loads in plain Node.
import type * as vscode from 'vscode';
import { PERSONAS, TEAM_SIZE } from '../../core/config/discover';
import { lmModelSpec, NoChatModelsError } from './models';

export interface LmAgentSpec {
  id: string;
  model: vscode.LanguageModelChat;
  /** Set when agents share a model, so they still approach the task differently. */
  personaSystemMessage?: string;
}

export interface PickLmTeamOptions {
  /** Defaults to TEAM_SIZE (3). */
  teamSize?: number;
  /** A model to put first, e.g. the one the user picked in the chat view (`request.model`). */
  preferred?: vscode.LanguageModelChat;
}

/**
 * A zero-config team from the available chat models.
 * - At least `teamSize` distinct models (distinct vendor/family): one agent per model, spread across model lines
 *   (gpt, claude, gemini, ...) before taking a second model of the same line; no personas (the models differ).
 * - Fewer distinct models: `teamSize` agents cycling through them (2 models → A, B, A), every agent with its own
 *   persona from PERSONAS, since some agents share a model.
 * Throws with `noChatModelsMessage()` when there is no model at all.
 */
export function pickLmTeam(models: readonly vscode.LanguageModelChat[], options: PickLmTeamOptions = {}): LmAgentSpec[] {
  const teamSize = Math.max(1, Math.floor(options.teamSize ?? TEAM_SIZE));
  const distinct = dedupeModels(options.preferred ? [options.preferred, ...models] : models);
  if (distinct.length === 0) throw new NoChatModelsError();

  const ids = new Set<string>();
  const uniqueId = (base: string) => {
    let id = base;
    for (let n = 2; ids.has(id); n++) id = `${base}-${n}`;
    ids.add(id);
    return id;
  };

  if (distinct.length >= teamSize) {
    return spreadAcrossLines(distinct, teamSize).map((model) => ({ id: uniqueId(slug(model.family || model.id || model.vendor)), model }));
  }
  return Array.from({ length: teamSize }, (_, i) => {
    const model = distinct[i % distinct.length];
    const persona = PERSONAS[i % PERSONAS.length];
    return { id: uniqueId(`${slug(model.family || model.id || model.vendor)}-${persona.id}`), model, personaSystemMessage: persona.systemMessage };
  });
}

function dedupeModels(models: readonly vscode.LanguageModelChat[]): vscode.LanguageModelChat[] {
  const seen = new Set<string>();
  const result: vscode.LanguageModelChat[] = [];
  for (const model of models) {
    const key = lmModelSpec(model).toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(model);
  }
  return result;
}

/** The leading letters of the family: gpt-4o → gpt, claude-3.5-sonnet → claude, o3-mini → o. */
function modelLine(model: vscode.LanguageModelChat): string {
  return `${model.vendor}/${/^[a-z]+/i.exec(model.family)?.[0]?.toLowerCase() ?? model.family}`;
}

function spreadAcrossLines(models: vscode.LanguageModelChat[], count: number): vscode.LanguageModelChat[] {
  const lines = new Set<string>();
  const picked: vscode.LanguageModelChat[] = [];
  for (const model of models) {
    if (picked.length === count) break;
    if (lines.has(modelLine(model))) continue;
    lines.add(modelLine(model));
    picked.push(model);
  }
  for (const model of models) {
    if (picked.length === count) break;
    if (!picked.includes(model)) picked.push(model);
  }
  // Keep the order the models came in (the preferred one first).
  return models.filter((m) => picked.includes(m));
}

/** An agent id fragment: gpt-4o → gpt-4o, "Claude 3.5 Sonnet" → claude-3-5-sonnet. */
function slug(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'model';
}
