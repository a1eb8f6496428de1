// Loads a MassGen-compatible YAML (or JSON) config into the typed MassGenConfig. Every problem is collected, not
// just the first, and each names `file:line` of the offending node plus the fix. Key values never reach any message.

import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { inferBackendType, isLocalUrl, keyRequirement, lookupBackend, resolveApiKey, SUPPORTED_BACKEND_TYPES, unknownBackendMessage, UPSTREAM_DEFAULT_MODELS } from './backends';
import { AZURE_ENDPOINT_ENV, azureSettings } from './azure';
import { backendExtras } from './backend-extras';
import { harnessSettings } from './harness-settings';
import { refuseUnrunnable } from './refusals';
import { expandUrlRefs } from './url-refs';
import { answersPerAgent, finalAnswerMode, mapSensitivity, runSensitivity, skipCoordination, turnTimeoutSeconds } from './upstream-keys';
import { McpServerSchema, MCP_SERVER_UPSTREAM_ONLY, normalizeMcpBackend } from './mcp';
import {
  AgentSchema, BackendSchema, BudgetSchema, ContextPathSchema, EXAMPLE_AGENTS, OrchestratorSchema, OrchestratorTimeoutSchema, PricingSchema,
  RootSchema, TimeoutSchema, UPSTREAM_ONLY,
} from './schema';
import { CheckSchema, toChecks } from './checks';
import { EscalationSchema, toEscalation } from './escalation';
import { check, ConfigError, field, Report, showPath, warnUnknownKeys, type ConfigWarning, type Path } from './report';
import { DEFAULT_ORCHESTRATOR, DEFAULT_TIMEOUTS, type AgentConfig, type BackendConfig, type Budget, type MassGenConfig } from './types';

export { ConfigError, formatIssue, type ConfigIssue, type ConfigWarning } from './report';

export interface LoadOptions {
  /** Fail when an agent's API key is missing. Off for `massgen validate` and for hosts that supply keys later. */
  requireKeys?: boolean;
  /** Where the config will run; `vscode-lm` agents only work inside VS Code. */
  host?: 'cli' | 'vscode';
}

export interface LoadResult {
  config: MassGenConfig;
  warnings: ConfigWarning[];
}

type BackendInput = z.infer<typeof BackendSchema>;

/** The backend keys that are present only when set, so configs without them compare equal to hand-built ones. */
function optionalBackendKeys(backend: BackendInput): Partial<BackendConfig> {
  const network = backend.command_line_docker_network_mode === 'bridge' || backend.command_line_docker_network_mode === 'host';
  return {
    ...(backend.context_window ? { contextWindow: backend.context_window } : {}),
    ...(backend.cwd ? { cwd: backend.cwd } : {}),
    ...(backend.enable_mcp_command_line
      ? {
          commands: {
            enabled: true,
            ...(backend.command_line_allowed_commands ? { allowed: backend.command_line_allowed_commands } : {}),
            ...(backend.command_line_blocked_commands ? { blocked: backend.command_line_blocked_commands } : {}),
            network,
          },
        }
      : {}),
    ...(backend.pricing
      ? {
          pricing: {
            inputPerMillion: backend.pricing.input_per_million,
            cachedInputPerMillion: backend.pricing.cached_input_per_million ?? backend.pricing.input_per_million,
            outputPerMillion: backend.pricing.output_per_million,
          },
        }
      : {}),
  };
}

function buildAgent(raw: unknown, at: Path, index: number, env: NodeJS.ProcessEnv, options: LoadOptions, report: Report): AgentConfig | undefined {
  const label = showPath(at);
  warnUnknownKeys(raw, Object.keys(AgentSchema.shape), UPSTREAM_ONLY.agent, at, report);
  const backendRaw = field(raw, 'backend');
  warnUnknownKeys(backendRaw, Object.keys(BackendSchema.shape), UPSTREAM_ONLY.backend, [...at, 'backend'], report);
  warnUnknownKeys(field(backendRaw, 'pricing'), Object.keys(PricingSchema.shape), UPSTREAM_ONLY.pricing, [...at, 'backend', 'pricing'], report);
  const serversRaw = field(backendRaw, 'mcp_servers');
  if (serversRaw && typeof serversRaw === 'object') {
    for (const [key, entry] of Object.entries(serversRaw)) {
      const index = Array.isArray(serversRaw) ? Number(key) : key;
      warnUnknownKeys(entry, Object.keys(McpServerSchema.shape), MCP_SERVER_UPSTREAM_ONLY, [...at, 'backend', 'mcp_servers', index], report);
    }
  }
  warnUnknownKeys(field(backendRaw, 'planning_mode'), ['enabled', 'blocked_tools'], [], [...at, 'backend', 'planning_mode'], report);
  const urls = expandUrlRefs(backendRaw, env);
  for (const { key, vars } of urls.unset) {
    const message = `${label}: backend.${key} refers to ${vars.map((v) => `\${${v}}`).join(', ')}: set ${vars.join(' and ')}`;
    if (options.requireKeys ?? true) report.error([...at, 'backend', key], message);
    else report.warn([...at, 'backend', key], `${message} before it runs`);
  }
  // A URL that waits for its variable is not missing: say so once, above, and nothing more.
  const urlDeferred = urls.unset.length > 0;
  const agent = check(AgentSchema, urls.backend === backendRaw ? raw : { ...(raw as object), backend: urls.backend }, at, report);
  if (!agent) return undefined;

  const id = agent.id ?? `agent${index + 1}`;
  const who = `${label} (${id})`;
  const { backend } = agent;
  if (!backend.type && !backend.model) {
    report.error([...at, 'backend'], `${who}: backend needs a type (one of: ${SUPPORTED_BACKEND_TYPES.join(', ')}) or a model to infer it from`);
    return undefined;
  }
  const type = backend.type ?? inferBackendType(backend.model ?? '');
  const typePath = [...at, 'backend', backend.type ? 'type' : 'model'];
  if (!type) {
    report.error(typePath, `${who}: cannot tell the backend from model "${backend.model}"; add backend.type (one of: ${SUPPORTED_BACKEND_TYPES.join(', ')})`);
    return undefined;
  }
  const spec = lookupBackend(type);
  if (!spec) {
    report.error(typePath, `${who}: ${unknownBackendMessage(type)}`);
    return undefined;
  }
  const model = backend.model ?? UPSTREAM_DEFAULT_MODELS[type.toLowerCase()];
  if (!model) {
    report.error([...at, 'backend'], `${who} uses type ${type}, which has no default model: add backend.model`);
    return undefined;
  }
  // Claude Code without a model picks its own (upstream's placeholder name says so); anything else is worth a word.
  if (!backend.model && type.toLowerCase() !== 'claude_code') report.warn([...at, 'backend'], `${who}: no backend.model given; using ${model}, upstream's default for type ${type}`);
  const azure = type.toLowerCase() === 'azure_openai' ? azureSettings(backend, env) : undefined;
  if (spec.requiresBaseUrl && !backend.base_url && !urlDeferred) {
    const example = type.toLowerCase() === 'poe' ? 'https://api.poe.com/v1' : 'http://localhost:11434/v1';
    report.error([...at, 'backend'], `${who} uses type ${type}, which needs backend.base_url (e.g. base_url: ${example})`);
    return undefined;
  }
  if (azure && !azure.endpoint && !urlDeferred) {
    const message = `${who} uses type azure_openai: set ${AZURE_ENDPOINT_ENV} or add backend.base_url (https://<resource>.openai.azure.com)`;
    if (options.requireKeys ?? true) report.error([...at, 'backend'], message);
    else report.warn([...at, 'backend'], `${message} before it runs`);
  }
  const baseUrl = (azure ? azure.endpoint : (backend.base_url ?? spec.defaultBaseUrl))?.replace(/\/+$/, '');
  const requirement = keyRequirement(type, baseUrl);
  const key = resolveApiKey(backend.api_key ?? undefined, requirement, env);
  const keyPath = [...at, 'backend', backend.api_key ? 'api_key' : 'type'];
  const requireKeys = options.requireKeys ?? true;
  if (requireKeys && key.unsetRefs.length > 0) {
    report.error(keyPath, `${who}: backend.api_key refers to ${key.unsetRefs.map((v) => `\${${v}}`).join(', ')}: set ${key.unsetRefs.join(' and ')}`);
  } else if (requireKeys && !key.apiKey && requirement.required) {
    const [first, ...alt] = requirement.envVars;
    const vars = alt.length ? `${first} (or ${alt.join(', ')})` : first;
    report.error(keyPath, `${who} uses type ${type}: set ${vars} or add backend.api_key`);
  }
  if (backend.api_key && !backend.api_key.includes('${')) {
    report.warn(keyPath, `${who}: backend.api_key is written in the file; prefer api_key: \${${requirement.envVars[0] ?? 'MY_API_KEY'}} to keep it out of the file`);
  }
  if (type.toLowerCase() === 'chatcompletion' && baseUrl && requirement.envVars.length === 0 && !backend.api_key && !isLocalUrl(baseUrl)) {
    report.warn([...at, 'backend', 'base_url'], `${who}: no API key env var is known for host ${new URL(baseUrl).host}; no key will be sent (add api_key: \${YOUR_KEY_VAR} if the server needs one)`);
  }
  const harness = harnessSettings(backend, type, who, at, report);
  if (backend.command_line_execution_mode === 'docker' && !harness) {
    report.warn([...at, 'backend', 'command_line_execution_mode'], `${who}: commands run in MassGen's own sandbox (bubblewrap on Linux), not in Docker`);
  }
  if (spec.family === 'vscode-lm' && (options.host ?? 'cli') !== 'vscode') {
    report.warn(typePath, `${who} uses type vscode-lm, which only works inside VS Code`);
  }
  // A program's allowed_tools are its own tools' (harness-settings.ts), and it has no MCP servers of ours.
  const mcp = harness ? { settings: {}, issues: [] } : normalizeMcpBackend(backend, env, { requireEnv: requireKeys });
  for (const issue of mcp.issues) {
    const path = [...at, 'backend', ...issue.path];
    if (issue.severity === 'error') report.error(path, `${who}: ${issue.message}`);
    else report.warn(path, `${who}: ${issue.message}`);
  }
  const extras = backendExtras({ ...backend, type, family: spec.family, baseUrl }, who, at, report);
  const votingSensitivity = agent.voting_sensitivity ? mapSensitivity(agent.voting_sensitivity, [...at, 'voting_sensitivity'], `${who}: `, report) : undefined;
  return {
    id,
    ...(votingSensitivity ? { votingSensitivity } : {}),
    backend: {
      type,
      family: spec.family,
      model,
      baseUrl,
      apiKey: key.apiKey,
      apiKeyEnv: key.apiKeyEnv,
      temperature: backend.temperature ?? undefined,
      maxTokens: backend.max_tokens ?? undefined,
      topP: backend.top_p ?? undefined,
      // A program runs its own commands: upstream's command keys are not ours for it (warned in harness-settings.ts).
      ...optionalBackendKeys(harness ? { ...backend, enable_mcp_command_line: null } : backend),
      ...extras,
      ...(azure ? { azureApiVersion: azure.apiVersion } : {}),
      ...mcp.settings,
      ...(harness ? { harness } : {}),
    },
    systemMessage: agent.system_message ?? undefined,
  };
}

/** The caps that are set, or undefined for none (an empty `budget:` block is no budget). */
function toBudget(raw: z.infer<typeof BudgetSchema> | null | undefined): Budget | undefined {
  const budget: Budget = {};
  if (raw?.max_cost_usd != null) budget.maxCostUsd = raw.max_cost_usd;
  if (raw?.max_total_tokens != null) budget.maxTotalTokens = raw.max_total_tokens;
  if (raw?.max_calls != null) budget.maxCalls = raw.max_calls;
  return Object.keys(budget).length > 0 ? budget : undefined;
}

function parseYaml(text: string, fileName: string): { doc: Document; lines: LineCounter; raw: unknown } {
  const lines = new LineCounter();
  const doc = parseDocument(text.replace(/^\uFEFF/, ''), { lineCounter: lines });
  if (doc.errors.length > 0) {
    throw new ConfigError(doc.errors.map((e) => ({
      file: fileName,
      path: '',
      line: e.linePos?.[0].line,
      column: e.linePos?.[0].col,
      // yaml appends " at line L, column C:" and a source excerpt; drop it so no file content is echoed.
      message: `YAML syntax error: ${e.message.split(/ at line \d+/)[0]}`,
    })));
  }
  return { doc, lines, raw: doc.toJS() };
}

/** Parses config text; `fileName` is only used in messages. Throws ConfigError listing every problem. */
export function parseConfigText(text: string, fileName: string, env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): LoadResult {
  const { doc, lines, raw } = parseYaml(text, fileName);
  const report = new Report(fileName, doc, lines);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    report.error([], `the config must be a mapping with an agents: list, for example:\n${EXAMPLE_AGENTS}`);
    throw new ConfigError(report.errors);
  }
  if (refuseUnrunnable(raw as Record<string, unknown>, report)) throw new ConfigError(report.errors);
  warnUnknownKeys(raw, Object.keys(RootSchema.shape), UPSTREAM_ONLY.root, [], report);
  const root = check(RootSchema, raw, [], report);
  const rec = raw as Record<string, unknown>;
  warnUnknownKeys(rec.orchestrator, Object.keys(OrchestratorSchema.shape), UPSTREAM_ONLY.orchestrator, ['orchestrator'], report);
  warnUnknownKeys(field(rec.orchestrator, 'timeout'), Object.keys(OrchestratorTimeoutSchema.shape), UPSTREAM_ONLY.orchestrator_timeout, ['orchestrator', 'timeout'], report);
  warnUnknownKeys(field(rec.orchestrator, 'budget'), Object.keys(BudgetSchema.shape), UPSTREAM_ONLY.budget, ['orchestrator', 'budget'], report);
  warnUnknownKeys(field(rec.orchestrator, 'escalation'), Object.keys(EscalationSchema.shape), UPSTREAM_ONLY.escalation, ['orchestrator', 'escalation'], report);
  warnUnknownKeys(rec.timeout_settings, Object.keys(TimeoutSchema.shape), UPSTREAM_ONLY.timeout_settings, ['timeout_settings'], report);
  const contextPaths = field(rec.orchestrator, 'context_paths');
  if (Array.isArray(contextPaths)) contextPaths.forEach((c, i) => warnUnknownKeys(c, Object.keys(ContextPathSchema.shape), UPSTREAM_ONLY.context_path, ['orchestrator', 'context_paths', i], report));
  const checkEntries = field(rec.orchestrator, 'checks');
  if (Array.isArray(checkEntries)) checkEntries.forEach((c, i) => warnUnknownKeys(c, Object.keys(CheckSchema.shape), [], ['orchestrator', 'checks', i], report));
  const coordination = field(rec.orchestrator, 'coordination');
  warnUnknownKeys(coordination, ['enable_planning_mode'], Object.keys(coordination ?? {}), ['orchestrator', 'coordination'], report);

  const agents: AgentConfig[] = [];
  const hasList = rec.agents !== undefined && rec.agents !== null;
  const hasSingle = rec.agent !== undefined && rec.agent !== null;
  if (hasList && hasSingle) {
    report.error(['agent'], 'use either agent: (one agent) or agents: (a list), not both');
  } else if (hasSingle) {
    const agent = buildAgent(rec.agent, ['agent'], 0, env, options, report);
    if (agent) agents.push(agent);
  } else if (!hasList || (Array.isArray(rec.agents) && rec.agents.length === 0)) {
    report.error(hasList ? ['agents'] : [], `no agents configured: add an agents: list, for example:\n${EXAMPLE_AGENTS}`);
  } else if (Array.isArray(rec.agents)) {
    rec.agents.forEach((a, i) => {
      const agent = buildAgent(a, ['agents', i], i, env, options, report);
      if (agent) agents.push(agent);
    });
  }
  agents.forEach((agent, i) => {
    const first = agents.findIndex((a) => a.id === agent.id);
    if (first < i) report.error(['agents', i, 'id'], `agents[${i}]: duplicate id "${agent.id}" (also used by agents[${first}]); ids must be unique`);
  });
  const checks = toChecks(root?.orchestrator?.checks ?? [], ['orchestrator', 'checks'], report);
  const team = root?.orchestrator?.skip_coordination_rounds ? skipCoordination(agents, report) : agents;
  const skipping = Boolean(root?.orchestrator?.skip_coordination_rounds && root.orchestrator.escalation);
  if (skipping) report.warn(['orchestrator', 'escalation'], 'orchestrator.escalation is ignored: skip_coordination_rounds runs the first agent alone');
  const escalation = skipping ? undefined : toEscalation(root?.orchestrator?.escalation, team.map((a) => a.id), report);
  if (report.errors.length > 0 || !root) throw new ConfigError(report.errors);

  const orch = root.orchestrator ?? {};
  const orchestratorSensitivity = orch.voting_sensitivity ? mapSensitivity(orch.voting_sensitivity, ['orchestrator', 'voting_sensitivity'], 'orchestrator.', report) : undefined;
  const votingSensitivity = runSensitivity(orchestratorSensitivity, agents, DEFAULT_ORCHESTRATOR.votingSensitivity, report);
  const perAgentCap = orch.skip_coordination_rounds ? 1 : (orch.max_new_answers_per_agent ?? DEFAULT_ORCHESTRATOR.maxNewAnswersPerAgent);
  if (orch.coordination?.enable_planning_mode) {
    // Upstream's switch: without upstream's irreversibility analysis, every side-effecting MCP tool is blocked.
    for (const agent of agents) {
      if (agent.backend.mcpServers?.length && !agent.backend.planningMode) agent.backend.planningMode = { enabled: true };
    }
  }
  const budget = toBudget(orch.budget);
  const topTimeout = root.timeout_settings?.orchestrator_timeout_seconds;
  const nestedTimeout = orch.timeout?.orchestrator_timeout_seconds;
  if (topTimeout != null && nestedTimeout != null && topTimeout !== nestedTimeout) {
    report.warn(['orchestrator', 'timeout', 'orchestrator_timeout_seconds'], `orchestrator.timeout.orchestrator_timeout_seconds (${nestedTimeout}) is overridden by timeout_settings.orchestrator_timeout_seconds (${topTimeout})`);
  }
  return {
    config: {
      agents: team,
      orchestrator: {
        votingSensitivity,
        answerNoveltyRequirement: orch.answer_novelty_requirement ?? DEFAULT_ORCHESTRATOR.answerNoveltyRequirement,
        maxNewAnswersPerAgent: answersPerAgent(perAgentCap, orch.max_new_answers_global, team.length, report),
        maxRounds: orch.max_rounds ?? DEFAULT_ORCHESTRATOR.maxRounds,
        finalAnswer: finalAnswerMode(orch, DEFAULT_ORCHESTRATOR.finalAnswer, report),
        contextCompaction: orch.context_compaction ?? DEFAULT_ORCHESTRATOR.contextCompaction,
        unavailableWaitSeconds: orch.unavailable_wait_seconds ?? DEFAULT_ORCHESTRATOR.unavailableWaitSeconds,
        promptCacheWaitSeconds: orch.prompt_cache_wait_seconds ?? DEFAULT_ORCHESTRATOR.promptCacheWaitSeconds,
        earlyDecision: orch.early_decision ?? DEFAULT_ORCHESTRATOR.earlyDecision,
        ...(budget ? { budget } : {}),
        ...(orch.context_paths?.length ? { contextPaths: orch.context_paths.map((c) => ({ path: c.path, permission: c.permission ?? 'read' })) } : {}),
        ...(checks.length ? { checks } : {}),
        ...(orch.verification ? { verification: orch.verification } : {}),
        ...(escalation ? { escalation } : {}),
      },
      timeouts: {
        // Upstream documents orchestrator.timeout but only reads timeout_settings; we honour both.
        orchestratorTimeoutSeconds: topTimeout ?? nestedTimeout ?? DEFAULT_TIMEOUTS.orchestratorTimeoutSeconds,
        agentTurnTimeoutSeconds: turnTimeoutSeconds(root.timeout_settings, DEFAULT_TIMEOUTS.agentTurnTimeoutSeconds),
      },
      source: fileName,
    },
    warnings: [...report.warnings].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)),
  };
}

/** Reads and parses a config file (YAML or JSON). Throws ConfigError, also for a missing or unreadable file. */
export function loadConfigFile(path: string, env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): LoadResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const message = code === 'ENOENT' ? 'config file not found' : code === 'EISDIR' ? 'is a directory, not a config file' : `cannot read config file (${code ?? String(err)})`;
    throw new ConfigError([{ file: path, path: '', message }]);
  }
  return parseConfigText(text, path, env, options);
}
