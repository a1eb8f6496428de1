// What "MassGen: Open Config" writes when the workspace has no .massgen/config.yaml yet: a commented starting
// point in upstream MassGen's format (the CLI reads the same file).

export const CONFIG_TEMPLATE = `# MassGen team for this workspace (upstream MassGen's YAML format; the massgen CLI reads it too).
# Several agents solve each task in parallel, review each other's answers anonymously, and vote.
# API keys: never here. Use "MassGen: Set API Key…" (stored in VS Code's secret storage) or environment variables.

agents:
  - id: gpt
    backend:
      type: openai               # key: OPENAI_API_KEY
      model: gpt-4.1-mini
  - id: claude
    backend:
      type: claude               # key: ANTHROPIC_API_KEY
      model: claude-haiku-4-5
  - id: local
    backend:
      type: chatcompletion       # any OpenAI-compatible server; local ones need no key
      model: llama3.2
      base_url: http://localhost:11434/v1
    system_message: "You are a careful reviewer: check edge cases before you vote."
  # A VS Code chat model (e.g. Copilot):
  # - id: copilot
  #   backend: { type: vscode-lm, model: copilot/gpt-4o }

orchestrator:
  voting_sensitivity: lenient        # lenient | balanced | strict
  answer_novelty_requirement: lenient
  max_new_answers_per_agent: 2       # then an agent may only vote
  max_rounds: 10
  final_answer: as_is                # as_is (the voted answer) | synthesize (the winner writes it)
  # budget: { max_cost_usd: 0.50, max_total_tokens: 200000, max_calls: 30 }

timeout_settings:
  orchestrator_timeout_seconds: 1800
  agent_turn_timeout_seconds: 600
`;
