// Upstream's provider settings — `reasoning`, `text`, the built-in tools (`enable_web_search`,
// `enable_code_interpreter` / `enable_code_execution`) — and our `api:` as the BackendConfig fields the providers
// read. Where the backend has no such setting the key is warned about with the reason, never dropped in silence.

import { usesResponsesApi } from './backends';
import type { Path, Report } from './report';
import type { BackendConfig, BuiltinTool, ProviderFamily } from './types';

interface ExtrasInput {
  type: string;
  family: ProviderFamily;
  baseUrl?: string;
  api?: 'responses' | 'chat_completions' | null;
  reasoning?: Record<string, unknown> | null;
  text?: Record<string, unknown> | null;
  enable_web_search?: boolean | null;
  enable_code_interpreter?: boolean | null;
  enable_code_execution?: boolean | null;
}

type Extras = Pick<BackendConfig, 'api' | 'reasoning' | 'text' | 'builtinTools'>;

/** Which built-in tools each kind of backend has, as its API names them (for the warnings). */
const BUILTINS: Readonly<Record<string, Partial<Record<BuiltinTool, string>>>> = {
  responses: { web_search: 'web_search', code_execution: 'code_interpreter' },
  anthropic: { web_search: 'web_search' },
  gemini: { web_search: 'google_search', code_execution: 'code_execution' },
};

export function backendExtras(input: ExtrasInput, who: string, at: Path, report: Report): Extras {
  const backendPath = [...at, 'backend'];
  const extras: Extras = {};
  // A coding agent's program takes these as its own settings (harness-settings.ts).
  if (input.family === 'harness') return extras;
  const openaiCompatible = input.family === 'openai-compatible';
  if (input.api && !openaiCompatible) {
    report.warn([...backendPath, 'api'], `${who}: backend.api only applies to OpenAI-compatible backends; type ${input.type} ignores it`);
  }
  const api = openaiCompatible ? (input.api ?? undefined) : undefined;
  const responses = usesResponsesApi({ type: input.type, family: input.family, baseUrl: input.baseUrl, api });
  if (responses) extras.api = 'responses';
  else if (api === 'chat_completions') extras.api = 'chat_completions';
  const kind = responses ? 'responses' : input.family === 'openai-compatible' ? 'chat' : input.family;

  if (input.reasoning) {
    // Chat completions take it too: OpenRouter as its `reasoning` object, other servers as `reasoning_effort`.
    if (kind === 'responses' || kind === 'chat') extras.reasoning = { ...input.reasoning } as BackendConfig['reasoning'];
    else report.warn([...backendPath, 'reasoning'], `${who}: backend.reasoning is a setting of OpenAI-compatible APIs; type ${input.type} has none, ignored`);
  }
  if (input.text) {
    if (kind === 'responses') extras.text = { ...input.text } as BackendConfig['text'];
    else report.warn([...backendPath, 'text'], `${who}: backend.text (verbosity) is a setting of OpenAI's Responses API, which type ${input.type} does not speak here; ignored`);
  }

  const wanted: [BuiltinTool, string][] = [];
  if (input.enable_web_search) wanted.push(['web_search', 'enable_web_search']);
  if (input.enable_code_interpreter) wanted.push(['code_execution', 'enable_code_interpreter']);
  else if (input.enable_code_execution) wanted.push(['code_execution', 'enable_code_execution']);
  const available = BUILTINS[kind] ?? {};
  const tools: BuiltinTool[] = [];
  for (const [tool, key] of wanted) {
    if (available[tool]) {
      tools.push(tool);
      continue;
    }
    const where = kind === 'chat' ? `type ${input.type} speaks chat completions here, which has no built-in tools` : `type ${input.type} has no built-in ${tool.replace('_', ' ')} tool here`;
    report.warn([...backendPath, key], `${who}: backend.${key}: ${where}; ignored (an MCP server can provide the tool)`);
  }
  if (tools.length) extras.builtinTools = tools;
  return extras;
}
