// `massgen run` and `massgen validate`: load the config, run the engine, project its events onto stderr progress,
// status.json and the log directory, print the answer, and map the ending to upstream's exit codes.

import { createWriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { discoverConfig } from '../core/config/discover';
import { ConfigError, formatIssue, loadConfigFile, type ConfigWarning } from '../core/config/load';
import type { MassGenConfig } from '../core/config/types';
import type { EndReason } from '../core/engine/events';
import type { ApprovalHandler, McpLogEntry } from '../core/mcp';
import { Orchestrator } from '../core/engine/orchestrator';
import type { RunResult } from '../core/engine/ports';
import { applyEvent, initialRunState } from '../core/engine/run-state';
import { createProvider } from '../core/providers/factory';
import { newLogDir, RunLog } from '../core/status/run-log';
import { backendPricing } from '../core/usage/cost';
import { estimateRun, type RunEstimate } from '../core/usage/estimate';
import { buildStatus, StatusWriter } from '../core/status/status-file';
import type { CliCommand } from './args';
import { ProgressPrinter } from './progress';

export const EXIT = { ok: 0, config: 1, execution: 2, timeout: 3, interrupted: 4 } as const;

export interface CliIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Registers the Ctrl-C handler; returns its remover. */
  onInterrupt(handler: () => void): () => void;
}

export function exitCodeFor(result: Pick<RunResult, 'reason' | 'winnerId'>): number {
  const byReason: Partial<Record<EndReason, number>> = { cancelled: EXIT.interrupted, timeout: EXIT.timeout, all_failed: EXIT.execution };
  return byReason[result.reason] ?? (result.winnerId ? EXIT.ok : EXIT.execution);
}

function printWarnings(io: CliIO, warnings: ConfigWarning[]): void {
  for (const w of warnings) io.stderr.write(`warning: ${formatIssue(w)}\n`);
}

async function resolveConfig(cmd: Extract<CliCommand, { command: 'run' }>, io: CliIO): Promise<MassGenConfig | number> {
  try {
    if (cmd.config) {
      const { config, warnings } = loadConfigFile(resolve(io.cwd, cmd.config), io.env, { requireKeys: true, host: 'cli' });
      printWarnings(io, warnings);
      return config;
    }
    const found = await discoverConfig({ cwd: io.cwd, env: io.env });
    if ('none' in found) {
      io.stderr.write(`${found.help}\n`);
      return EXIT.config;
    }
    printWarnings(io, found.warnings);
    if (!cmd.automation) io.stderr.write(`Using ${found.source}.\n`);
    return found.config;
  } catch (err) {
    if (err instanceof ConfigError) {
      io.stderr.write(`Configuration error: ${err.message}\n`);
      return EXIT.config;
    }
    throw err;
  }
}

export async function runCommand(cmd: Extract<CliCommand, { command: 'run' }>, io: CliIO): Promise<number> {
  const config = await resolveConfig(cmd, io);
  if (typeof config === 'number') return config;
  if (cmd.estimate) {
    const estimate = estimateRun({
      agents: config.agents.map((a) => ({ id: a.id, model: a.backend.model, pricing: backendPricing(a.backend).pricing, systemPromptChars: a.systemMessage?.length })),
      question: cmd.question,
      maxNewAnswersPerAgent: config.orchestrator.maxNewAnswersPerAgent,
      maxRounds: config.orchestrator.maxRounds,
      finalAnswer: config.orchestrator.finalAnswer,
    });
    io.stdout.write(formatEstimate(estimate, config));
    return EXIT.ok;
  }
  const timeouts = { ...config.timeouts, ...(cmd.timeoutSeconds ? { orchestratorTimeoutSeconds: cmd.timeoutSeconds } : {}) };

  let agents;
  try {
    agents = config.agents.map((a) => ({
      id: a.id,
      provider: createProvider(a),
      systemMessage: a.systemMessage,
      temperature: a.backend.temperature,
      maxTokens: a.backend.maxTokens,
      pricing: backendPricing(a.backend).pricing,
    }));
  } catch (err) {
    io.stderr.write(`Configuration error: ${(err as Error).message}\n`);
    return EXIT.config;
  }

  const logDir = cmd.logDir ? resolve(io.cwd, cmd.logDir) : newLogDir(join(io.cwd, '.massgen', 'logs'));
  const log = new RunLog(logDir);
  const statusPaths = [join(logDir, 'status.json'), ...(cmd.statusFile ? [resolve(io.cwd, cmd.statusFile)] : [])];
  const state = initialRunState();
  const status = new StatusWriter(statusPaths, () => buildStatus(state, logDir), 250, (path, err) => io.stderr.write(`warning: cannot write ${path}: ${err.message}\n`));
  const progress = cmd.automation ? undefined : new ProgressPrinter(io.stderr);

  // MCP servers: one toolbox per agent that has servers; their logs and stderr go to <log dir>/mcp.log only.
  const usesMcp = config.agents.some((a) => a.backend.mcpServers?.length);
  const mcpLogFile = usesMcp ? createWriteStream(join(logDir, 'mcp.log'), { flags: 'a' }) : undefined;
  mcpLogFile?.on('error', () => undefined);
  const mcpLog = (e: McpLogEntry) => mcpLogFile?.write(`${new Date().toISOString()} ${e.level} ${e.server}${e.agentId ? `@${e.agentId}` : ''} ${e.source}: ${e.message}\n`);
  const denied = new Set<string>();
  const approve: ApprovalHandler = async (request) => {
    if (cmd.approveTools) return true;
    if (!cmd.automation && !denied.has(`${request.agentId}\0${request.toolName}`)) {
      denied.add(`${request.agentId}\0${request.toolName}`);
      progress?.clearFooter();
      io.stderr.write(`note: ${request.agentId} was denied ${request.toolName} (it needs approval; run with --approve-tools to allow such tools)\n`);
    }
    return false;
  };
  // Loaded only for a team that uses MCP: the SDK's schemas take longer to set up than the rest of the start-up.
  const mcp = usesMcp ? await import('../core/mcp/toolbox.js') : undefined;
  const mcpPool = mcp && new mcp.McpServerPool({ log: mcpLog, processEnv: io.env });
  const withTools = agents.map((a, i) => ({ ...a, toolbox: mcp?.mcpToolboxForAgent(config.agents[i], { approve, log: mcpLog, pool: mcpPool, processEnv: io.env }) }));

  if (cmd.automation) {
    io.stdout.write(`LOG_DIR: ${logDir}\nSTATUS: ${statusPaths[statusPaths.length - 1]}\nQUESTION: ${cmd.question}\n`);
    io.stdout.write('[Coordination in progress - monitor status.json for real-time updates]\n');
  }

  const orchestrator = new Orchestrator({
    task: cmd.question,
    agents: withTools,
    orchestrator: config.orchestrator,
    timeouts,
    onEvent: (event) => {
      applyEvent(state, event);
      log.record(event);
      if (event.type !== 'text_delta' && event.type !== 'reasoning_delta') status.changed();
      progress?.onEvent(event, state);
    },
  });
  const removeInterrupt = io.onInterrupt(() => {
    progress?.clearFooter();
    io.stderr.write('\nInterrupted: stopping the agents and saving what they have so far…\n');
    orchestrator.cancel();
  });
  let result: RunResult;
  try {
    result = await orchestrator.run();
  } finally {
    removeInterrupt();
    // The engine closes every toolbox when the run ends; the pool is the safety net for shared servers.
    await mcpPool?.close();
    await new Promise<void>((done) => (mcpLogFile ? mcpLogFile.end(done) : done()));
    status.flush();
    await log.close();
  }
  if (log.writeError) io.stderr.write(`warning: the event log is incomplete: ${log.writeError.message}\n`);

  const answerFile = result.winnerId ? log.finalAnswerPath(result.winnerId) : null;
  if (cmd.automation) {
    io.stdout.write(
      [
        `WINNER: ${result.winnerId ?? 'none'}`,
        `ANSWER_FILE: ${answerFile ?? 'none'}`,
        `DURATION: ${(result.durationMs / 1000).toFixed(1)}s`,
        `ANSWER_PREVIEW: ${(result.finalAnswer ?? '').slice(0, 200).replace(/\s+/g, ' ')}`,
        `COMPLETED: ${result.reason}`,
        ...(result.error ? [`ERROR: ${result.error.replace(/\n\s*/g, '; ')}`] : []),
      ].join('\n') + '\n',
    );
  } else {
    if (result.finalAnswer !== null) io.stdout.write(result.finalAnswer.endsWith('\n') ? result.finalAnswer : `${result.finalAnswer}\n`);
    else if (result.error) io.stderr.write(`${result.error}\n`);
    io.stderr.write(`Log: ${logDir}\n`);
  }
  return exitCodeFor(result);
}

const usd = (n: number) => `$${n < 0.01 ? n.toFixed(4) : n.toFixed(2)}`;
const range = (r: { min: number; max: number }, f: (n: number) => string = String) => (r.min === r.max ? f(r.min) : `${f(r.min)}–${f(r.max)}`);

export function formatEstimate(e: RunEstimate, config: MassGenConfig): string {
  const cost = e.costUsd
    ? `${range(e.costUsd, usd)}${e.costUsd.partial ? ` (without ${e.costUsd.unpricedAgentIds.join(', ')}: no known price)` : ''}`
    : 'unknown (no agent has a known price; set backend.pricing)';
  const b = config.orchestrator.budget;
  const caps = b ? [b.maxCostUsd !== undefined && `cost ${usd(b.maxCostUsd)}`, b.maxTotalTokens !== undefined && `${b.maxTotalTokens} tokens`, b.maxCalls !== undefined && `${b.maxCalls} calls`].filter(Boolean).join(', ') : '';
  return [
    `Estimate for ${config.agents.length} agent(s), nothing spent:`,
    `  model calls:   ${range(e.calls)}`,
    `  input tokens:  ${range(e.inputTokens)}`,
    `  output tokens: ${range(e.outputTokens)}`,
    `  cost:          ${cost}`,
    ...(caps ? [`  budget:        ${caps} (the run stops before crossing it)`] : []),
    'Assumptions:',
    ...e.assumptions.map((a) => `  - ${a}`),
    '',
  ].join('\n');
}

export function validateCommand(file: string, io: CliIO): number {
  try {
    const { config, warnings } = loadConfigFile(resolve(io.cwd, file), io.env, { requireKeys: false, host: 'cli' });
    printWarnings(io, warnings);
    const missing = config.agents.filter((a) => a.backend.apiKeyEnv && !a.backend.apiKey);
    for (const a of missing) io.stderr.write(`note: agent '${a.id}' will need ${a.backend.apiKeyEnv} set when it runs.\n`);
    const agents = config.agents.map((a) => `${a.id} (${a.backend.type} ${a.backend.model})`).join(', ');
    io.stdout.write(`OK: ${file}: ${config.agents.length} agent(s): ${agents}\n`);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof ConfigError) {
      io.stderr.write(`Configuration error: ${err.message}\n`);
      return EXIT.config;
    }
    throw err;
  }
}
