// What "MassGen: Open Config" writes when the workspace has no config file yet: the team that runs now (the
// massgen.agents setting, or the chat models a zero-config run picks) and the voting settings, in upstream MassGen's
// YAML format (the massgen CLI reads the same file). The file then decides the team, so it starts as what the user
// already has; the other providers are shown as comments only.

import { stringify } from 'yaml';
import { inlineKeys, settingsToYamlObject, withoutInlineKeys, type MassGenSettings, type SettingsAgent } from '../core/config/settings';

const EXAMPLES = `
# More agents (add them under "agents:" above):
#   - id: gpt
#     backend: { type: openai, model: gpt-4.1-mini }                  # key: OPENAI_API_KEY
#   - id: claude
#     backend: { type: claude, model: claude-haiku-4-5 }              # key: ANTHROPIC_API_KEY
#   - id: local
#     backend: { type: chatcompletion, model: llama3.2, base_url: "http://localhost:11434/v1" }   # a local server, no key
#     system_message: "You are a careful reviewer: check edge cases before you vote."
#   - id: copilot
#     backend: { type: vscode-lm, model: copilot/gpt-4o }             # a VS Code chat model
#   - id: claude-code
#     backend: { type: claude_code }                                  # your Claude Code, in its own copy of the project
#   - id: codex
#     backend: { type: codex, model: gpt-5.4 }                        # your Codex, in its own copy of the project
#
# orchestrator: voting_sensitivity (lenient | balanced | strict), answer_novelty_requirement, max_new_answers_per_agent,
#   max_rounds, final_answer (as_is: the voted answer | synthesize: the winner writes it),
#   budget: { max_cost_usd: 0.50, max_total_tokens: 200000, max_calls: 30 }
`;

/** The file for `settings` (whose agents are the current team); `from` says where that team came from. */
export function configYaml(settings: MassGenSettings, from: string): string {
  const header = [
    '# MassGen team for this workspace (upstream MassGen\'s YAML format; the massgen CLI reads it too).',
    `# Written by "MassGen: Open Config" from ${from}. While this file exists, it decides the team and the voting`,
    '# settings in this workspace: the massgen.* settings in VS Code no longer apply here. Delete it to go back to them.',
    '# API keys: never here. Use "MassGen: Set API Key…" (VS Code\'s secret storage) or environment variables.',
    '',
  ].join('\n');
  // A key pasted into massgen.agents stays out of the file: it names the variable the key is looked up under instead.
  const agents = withoutInlineKeys(settings.agents, inlineKeys(settings.agents)) as SettingsAgent[];
  return `${header}${stringify(settingsToYamlObject({ ...settings, agents }), { lineWidth: 0 })}${EXAMPLES}`;
}
