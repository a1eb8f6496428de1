// Upstream configs run unchanged: the refusals in one line, the provider settings (reasoning, text, built-in tools,
// api), Azure OpenAI, upstream's default models, and the orchestration keys mapped to ours.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ConfigError, loadConfigFile, parseConfigText, type LoadResult } from './load';

const ENV = { OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a', GEMINI_API_KEY: 'g', AZURE_OPENAI_API_KEY: 'az', XAI_API_KEY: 'x', OPENROUTER_API_KEY: 'or' };

function load(lines: string[], env: NodeJS.ProcessEnv = ENV, requireKeys = true): LoadResult {
  return parseConfigText(lines.join('\n'), 'team.yaml', env, { requireKeys });
}

function refusal(lines: string[]): string {
  try {
    load(lines);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  assert.fail('expected a ConfigError');
}

const warningsOf = (result: LoadResult) => result.warnings.map((w) => `${w.line}: ${w.message}`);

describe('upstream configs: what cannot run is refused in one line', () => {
  it('agent-program backends, grouped by type, with what to use instead, and no other problem listed', () => {
    const message = refusal([
      'agents:',
      '  - id: a',
      '    backend: {type: gemini_cli, cwd: ws}',
      '  - id: b',
      '    backend: {type: copilot, model: gpt-5.4}',
      '  - id: c',
      '    backend: {type: gemini_cli, bogus_key: 1}',
      '  - id: d',
      '    backend: {type: claude_code}',
      'orchestrator: {voting_sensitivity: nonsense}',
    ]);
    assert.equal(message.split('\n').length, 1, message);
    assert.match(message, /^team\.yaml:3: agents\[0\] \(a\), agents\[2\] \(c\) use type gemini_cli, the Gemini CLI: an agent program, not a model API, which MassGen for VS Code does not drive \(of those it runs claude_code and codex\) because on Linux its sandbox is a container .*; use type: gemini with the same model/);
    assert.match(message, /; agents\[1\] \(b\) uses type copilot, the GitHub Copilot SDK: .* because its runtime \(the Copilot CLI\) asks for approval before commands.*; use type: vscode-lm inside VS Code/);
    assert.ok(!message.includes('agents[3]'), message);
  });

  it('coding agents (claude_code, codex) take upstream\'s keys; what they do not take is warned about in one line', () => {
    const { config, warnings } = load([
      'agents:',
      '  - id: cc',
      '    backend:',
      '      type: claude_code',
      '      model: claude-sonnet-4-5',
      '      permission_mode: bypassPermissions',
      '      allowed_tools: [Read, Edit]',
      '      disallowed_tools: [WebFetch]',
      '      max_turns: 12',
      '      append_system_prompt: Be brief.',
      '      approval_mode: full-auto',
      '  - id: cx',
      '    backend:',
      '      type: codex',
      '      approval_mode: full-access',
      '      reasoning: {effort: high}',
      '      system_prompt: You review code.',
      '      mcp_servers: [{name: fs, type: stdio, command: npx}]',
      '      enable_mcp_command_line: true',
      '      command_line_docker_network_mode: bridge',
      '  - id: gpt',
      '    backend: {type: openai, model: gpt-5, max_turns: 3}',
    ]);
    assert.deepEqual(config.agents.map((a) => a.backend.harness), [
      { program: 'claude_code', allowedTools: ['Read', 'Edit'], disallowedTools: ['WebFetch'], maxTurns: 12, appendSystemPrompt: 'Be brief.' },
      { program: 'codex', systemPrompt: 'You review code.', reasoningEffort: 'high' },
      undefined,
    ]);
    assert.equal(config.agents[1].backend.model, 'gpt-5.4');
    assert.equal(config.agents[1].backend.commands, undefined, 'no commands of ours for a program');
    assert.deepEqual(warningsOf({ config, warnings }).filter((w) => !/no backend\.model given/.test(w)), [
      '6: agents[0] (cc): permission_mode bypassPermissions would let Claude Code write outside its own copy; acceptEdits is used (edits in its copy, commands in its sandbox)',
      '11: agents[0] (cc): backend.approval_mode is not a setting of Claude Code; ignored',
      '15: agents[1] (cx): approval_mode full-access is not used: in a team run nobody answers approvals, so Codex works as full-auto, in its workspace-write sandbox on its own copy',
      '18: agents[1] (cx): Codex uses the MCP servers of its own configuration here; backend.mcp_servers is ignored',
      '19: agents[1] (cx): Codex runs its own commands, in its own sandbox: backend.enable_mcp_command_line, backend.command_line_docker_network_mode are ignored (their network follows --allow-network or massgen.commands.network)',
      '22: agents[2] (gpt): backend.max_turns is a setting of coding agents\' programs (claude_code, codex); type openai ignores it',
    ]);
  });

  it('every agent-program type upstream has, and the single agent: form', () => {
    const instead: Record<string, RegExp> = {
      gemini_cli: /use type: gemini/, antigravity_cli: /use type: gemini/, copilot: /type: vscode-lm inside VS Code/, ag2: /an API backend/, autogen: /an API backend/,
    };
    for (const [type, hint] of Object.entries(instead)) {
      const message = refusal(['agent:', '  id: solo', `  backend: {type: ${type}}`]);
      assert.match(message, new RegExp(`^team\\.yaml:3: agent \\(solo\\) uses type ${type}, `), message);
      assert.match(message, hint, message);
    }
  });

  it('a MassGen v1 file and a file that is no run config at all', () => {
    assert.equal(refusal(['models: [gpt-4o, claude-3]', 'num_agents: 3', 'consensus_threshold: 0.5']),
      'team.yaml:1: this is a MassGen v1 config (top-level models, num_agents, consensus_threshold), a format upstream MassGen no longer reads either: write an agents: list with a backend: {type, model} per agent, as in examples/openai-three-agents.yaml');
    assert.match(refusal(['gemini:', '  gemini-2.5-flash: {rpm: 9}']), /^team\.yaml:1: not a MassGen run config: it has no agents: list \(its top-level keys: gemini\); a config names its agents/);
  });
});

describe('upstream configs: provider settings', () => {
  it('type openai at OpenAI speaks the Responses API with reasoning, text and the built-in tools', () => {
    const { config, warnings } = load([
      'agents:',
      '  - id: gpt',
      '    backend:',
      '      type: openai',
      '      model: gpt-5',
      '      text: {verbosity: medium}',
      '      reasoning: {effort: high, summary: auto}',
      '      enable_web_search: true',
      '      enable_code_interpreter: true',
    ]);
    assert.deepEqual(warnings, []);
    const b = config.agents[0].backend;
    assert.equal(b.api, 'responses');
    assert.deepEqual(b.reasoning, { effort: 'high', summary: 'auto' });
    assert.deepEqual(b.text, { verbosity: 'medium' });
    assert.deepEqual(b.builtinTools, ['web_search', 'code_execution']);
  });

  it('type openai elsewhere stays on chat completions (reasoning kept, text and built-ins warned), unless api: says otherwise', () => {
    const result = load([
      'agents:',
      '  - id: local',
      '    backend: {type: openai, model: m, base_url: "http://localhost:8080/v1", reasoning: {effort: low}, text: {verbosity: low}, enable_web_search: true}',
      '  - id: forced',
      '    backend: {type: openai, model: m, base_url: "http://localhost:8080/v1", api: responses}',
      '  - id: grok',
      '    backend: {type: grok, model: grok-4, enable_web_search: true}',
    ]);
    const [local, forced, grok] = result.config.agents.map((a) => a.backend);
    assert.equal(local.api, undefined);
    assert.deepEqual(local.reasoning, { effort: 'low' });
    assert.equal(local.text, undefined);
    assert.equal(local.builtinTools, undefined);
    assert.equal(forced.api, 'responses');
    assert.equal(grok.builtinTools, undefined);
    assert.deepEqual(warningsOf(result), [
      '3: agents[0] (local): backend.text (verbosity) is a setting of OpenAI\'s Responses API, which type openai does not speak here; ignored',
      '3: agents[0] (local): backend.enable_web_search: type openai speaks chat completions here, which has no built-in tools; ignored (an MCP server can provide the tool)',
      '7: agents[2] (grok): backend.enable_web_search: type grok speaks chat completions here, which has no built-in tools; ignored (an MCP server can provide the tool)',
    ]);
  });

  it('claude gets web search (code execution is warned); gemini gets Google Search and code execution', () => {
    const result = load([
      'agents:',
      '  - id: c',
      '    backend: {type: claude, model: claude-sonnet-4-5, enable_web_search: true, enable_code_execution: true, reasoning: {effort: high}}',
      '  - id: g',
      '    backend: {type: gemini, model: gemini-2.5-flash, enable_web_search: true, enable_code_execution: true}',
    ]);
    const [claude, gemini] = result.config.agents.map((a) => a.backend);
    assert.deepEqual(claude.builtinTools, ['web_search']);
    assert.equal(claude.reasoning, undefined);
    assert.deepEqual(gemini.builtinTools, ['web_search', 'code_execution']);
    assert.deepEqual(warningsOf(result), [
      '3: agents[0] (c): backend.reasoning is a setting of OpenAI-compatible APIs; type claude has none, ignored',
      '3: agents[0] (c): backend.enable_code_execution: type claude has no built-in code execution tool here; ignored (an MCP server can provide the tool)',
    ]);
  });

  it('upstream’s default model per type when model is left out, said in the warnings', () => {
    const result = load(['agents:', '  - backend: {type: gemini}', '  - backend: {type: claude}', '  - backend: {type: grok}']);
    assert.deepEqual(result.config.agents.map((a) => a.backend.model), ['gemini-3-flash-preview', 'claude-opus-4-6', 'grok-4.20-0309-reasoning']);
    assert.deepEqual(warningsOf(result), [
      '2: agents[0] (agent1): no backend.model given; using gemini-3-flash-preview, upstream\'s default for type gemini',
      '3: agents[1] (agent2): no backend.model given; using claude-opus-4-6, upstream\'s default for type claude',
      '4: agents[2] (agent3): no backend.model given; using grok-4.20-0309-reasoning, upstream\'s default for type grok',
    ]);
  });
});

describe('upstream configs: azure_openai', () => {
  it('takes the endpoint from base_url, else azure_endpoint, else AZURE_OPENAI_ENDPOINT; the API version likewise', () => {
    const given = load(['agent:', '  backend: {type: azure_openai, model: my-gpt, base_url: "https://res.openai.azure.com/", api_version: 2025-01-01-preview}']);
    assert.deepEqual(given.config.agents[0].backend, {
      type: 'azure_openai', family: 'openai-compatible', model: 'my-gpt', baseUrl: 'https://res.openai.azure.com', apiKey: 'az', apiKeyEnv: 'AZURE_OPENAI_API_KEY',
      temperature: undefined, maxTokens: undefined, topP: undefined, azureApiVersion: '2025-01-01-preview',
    });
    const env = { ...ENV, AZURE_OPENAI_ENDPOINT: 'https://env.openai.azure.com', AZURE_OPENAI_API_VERSION: '2024-10-21' };
    const fromEnv = load(['agent:', '  backend: {type: azure_openai, model: dep}'], env).config.agents[0].backend;
    assert.equal(fromEnv.baseUrl, 'https://env.openai.azure.com');
    assert.equal(fromEnv.azureApiVersion, '2024-10-21');
    const defaults = load(['agent:', '  backend: {type: azure_openai, model: dep, azure_endpoint: "https://a.openai.azure.com"}']).config.agents[0].backend;
    assert.equal(defaults.azureApiVersion, '2024-12-01-preview');
    assert.equal(defaults.baseUrl, 'https://a.openai.azure.com');
  });

  it('without an endpoint: an error for a run, a warning for validate', () => {
    assert.equal(refusal(['agent:', '  id: az', '  backend: {type: azure_openai, model: dep}']),
      'team.yaml:3: agent (az) uses type azure_openai: set AZURE_OPENAI_ENDPOINT or add backend.base_url (https://<resource>.openai.azure.com)');
    const checked = load(['agent:', '  id: az', '  backend: {type: azure_openai, model: dep}'], {}, false);
    assert.deepEqual(warningsOf(checked), ['3: agent (az) uses type azure_openai: set AZURE_OPENAI_ENDPOINT or add backend.base_url (https://<resource>.openai.azure.com) before it runs']);
  });
  it('expands ${VAR} in base_url; an unset variable is named once (an error for a run, a warning for validate)', () => {
    const lines = ['agent:', '  id: az', '  backend: {type: azure_openai, model: dep, base_url: "${AZ_URL}/"}'];
    assert.equal(load(lines, { ...ENV, AZ_URL: 'https://x.openai.azure.com' }).config.agents[0].backend.baseUrl, 'https://x.openai.azure.com');
    assert.equal(refusal(lines), 'team.yaml:3: agent: backend.base_url refers to ${AZ_URL}: set AZ_URL');
    assert.deepEqual(warningsOf(load(lines, {}, false)), ['3: agent: backend.base_url refers to ${AZ_URL}: set AZ_URL before it runs']);
  });
});

describe('upstream configs: orchestration keys mapped to ours', () => {
  const TWO = ['agents:', '  - id: a', '    backend: {type: openai, model: gpt-5}', '  - id: b', '    backend: {type: claude, model: claude-sonnet-4-5}'];

  it('upstream’s later voting variants use the nearest of ours, saying so', () => {
    const result = load([...TWO, 'orchestrator:', '  voting_sensitivity: checklist_gated']);
    assert.equal(result.config.orchestrator.votingSensitivity, 'strict');
    assert.deepEqual(warningsOf(result), ['7: orchestrator.voting_sensitivity checklist_gated (upstream\'s checklist-gated voting) is not implemented here; using strict, the nearest']);
    assert.equal(load([...TWO, 'orchestrator: {voting_sensitivity: roi_conservative}']).config.orchestrator.votingSensitivity, 'lenient');
  });

  it('per-agent voting_sensitivity decides when every agent ends up with the same; when they differ the run’s is used, saying so', () => {
    const same = load(['agents:', '  - id: a', '    voting_sensitivity: strict', '    backend: {type: openai, model: gpt-5}', '  - id: b', '    voting_sensitivity: strict', '    backend: {type: openai, model: gpt-5}']);
    assert.equal(same.config.orchestrator.votingSensitivity, 'strict');
    assert.deepEqual(same.config.agents.map((a) => a.votingSensitivity), ['strict', 'strict']);
    assert.deepEqual(same.warnings, []);
    const differ = load(['agents:', '  - id: a', '    voting_sensitivity: strict', '    backend: {type: openai, model: gpt-5}', '  - id: b', '    backend: {type: openai, model: gpt-5}', 'orchestrator: {voting_sensitivity: balanced}']);
    assert.equal(differ.config.orchestrator.votingSensitivity, 'balanced');
    assert.deepEqual(warningsOf(differ), ['3: agents differ in voting_sensitivity (a: strict, b: balanced); one sensitivity applies to every agent here: using balanced']);
  });

  it('final_answer_strategy and skip_final_presentation map to final_answer; final_answer wins', () => {
    const mode = (orch: string) => load([...TWO, `orchestrator: ${orch}`]).config.orchestrator.finalAnswer;
    assert.equal(mode('{final_answer_strategy: winner_reuse}'), 'as_is');
    assert.equal(mode('{final_answer_strategy: winner_present}'), 'synthesize');
    assert.equal(mode('{final_answer_strategy: synthesize}'), 'synthesize');
    assert.equal(mode('{skip_final_presentation: true}'), 'as_is');
    const both = load([...TWO, 'orchestrator: {final_answer: as_is, final_answer_strategy: synthesize}']);
    assert.equal(both.config.orchestrator.finalAnswer, 'as_is');
    assert.match(warningsOf(both)[0], /final_answer \(as_is\) overrides the final answer strategy \(synthesize\)/);
  });

  it('max_new_answers_global becomes each agent’s share (a lower per-agent cap wins), saying so', () => {
    const shared = load([...TWO, 'orchestrator: {max_new_answers_global: 5}']);
    assert.equal(shared.config.orchestrator.maxNewAnswersPerAgent, 2);
    assert.deepEqual(warningsOf(shared), ['6: orchestrator.max_new_answers_global (5) is applied as at most 2 answer(s) per agent (the engine caps answers per agent; 2 agent(s))']);
    assert.equal(load([...TWO, 'orchestrator: {max_new_answers_global: 1}']).config.orchestrator.maxNewAnswersPerAgent, 1);
    assert.equal(load([...TWO, 'orchestrator: {max_new_answers_global: 10, max_new_answers_per_agent: 3}']).config.orchestrator.maxNewAnswersPerAgent, 3);
  });

  it('skip_coordination_rounds runs the first agent alone with one answer', () => {
    const result = load([...TWO, 'orchestrator: {skip_coordination_rounds: true}']);
    assert.deepEqual(result.config.agents.map((a) => a.id), ['a']);
    assert.equal(result.config.orchestrator.maxNewAnswersPerAgent, 1);
    assert.deepEqual(warningsOf(result), ['6: orchestrator.skip_coordination_rounds: only the first agent (a) runs, with one answer; b does not run']);
  });

  it('round timeouts plus their grace set the turn timeout unless agent_turn_timeout_seconds is given', () => {
    const turn = (t: string) => load([...TWO, `timeout_settings: ${t}`]).config.timeouts.agentTurnTimeoutSeconds;
    assert.equal(turn('{initial_round_timeout_seconds: 600, subsequent_round_timeout_seconds: 300, round_timeout_grace_seconds: 120}'), 720);
    assert.equal(turn('{subsequent_round_timeout_seconds: 300}'), 420);
    assert.equal(turn('{initial_round_timeout_seconds: 600, round_timeout_grace_seconds: 0}'), 600);
    assert.equal(turn('{initial_round_timeout_seconds: 600, agent_turn_timeout_seconds: 90}'), 90);
    assert.equal(turn('{orchestrator_timeout_seconds: 100}'), 600);
    assert.deepEqual(load([...TWO, 'timeout_settings: {initial_round_timeout_seconds: 600}']).warnings, []);
  });
});

describe('examples/ in upstream’s own style', () => {
  it('upstream-gemini-gpt5-claude.yaml: Gemini, the Responses API with reasoning and tools, Claude with web search', () => {
    const { config, warnings } = loadConfigFile(join(__dirname, '../../../examples/upstream-gemini-gpt5-claude.yaml'), ENV);
    const [gemini, gpt, claude] = config.agents.map((a) => a.backend);
    assert.deepEqual([gemini.family, gemini.builtinTools], ['gemini', ['web_search', 'code_execution']]);
    assert.deepEqual([gpt.api, gpt.reasoning, gpt.text, gpt.builtinTools], ['responses', { effort: 'medium', summary: 'auto' }, { verbosity: 'medium' }, ['web_search', 'code_execution']]);
    assert.deepEqual(claude.builtinTools, ['web_search']);
    assert.equal(config.orchestrator.finalAnswer, 'as_is');
    assert.equal(config.orchestrator.maxNewAnswersPerAgent, 2);
    assert.equal(config.timeouts.agentTurnTimeoutSeconds, 420);
    assert.deepEqual(warnings.map((w) => w.message), ['orchestrator.max_new_answers_global (6) is applied as at most 2 answer(s) per agent (the engine caps answers per agent; 3 agent(s))']);
  });

  it('azure-openai.yaml: two deployments at the endpoint from the environment', () => {
    const { config, warnings } = loadConfigFile(join(__dirname, '../../../examples/azure-openai.yaml'), { ...ENV, AZURE_OPENAI_ENDPOINT: 'https://r.openai.azure.com' });
    assert.deepEqual(config.agents.map((a) => [a.backend.model, a.backend.baseUrl, a.backend.azureApiVersion]), [
      ['gpt-4o', 'https://r.openai.azure.com', '2024-12-01-preview'],
      ['gpt-4.1-mini', 'https://r.openai.azure.com', '2024-12-01-preview'],
    ]);
    assert.deepEqual(warnings, []);
  });
});
