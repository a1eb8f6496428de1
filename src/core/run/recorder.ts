// The run's record on disk, when a front end asks for one: the log directory (events.jsonl, answers, votes, the
// final answer, each answer's patch and the winner's change in workspace runs, MCP server output) and status.json,
// kept current at most every 250 ms and written atomically. Best effort: a full disk never stops the run; each
// problem is reported once.

import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '../engine/events';
import type { RunState } from '../engine/run-state';
import type { McpLogger } from '../mcp';
import { RunLog } from '../status/run-log';
import { buildStatus, StatusWriter } from '../status/status-file';
import { errorMessage } from '../util/errors';

export interface RecordOptions {
  /** The run's log directory (created if missing). */
  logDir: string;
  /** More places to keep a status.json (the CLI's --status-file); <logDir>/status.json is always written. */
  statusFiles?: string[];
  /** A write problem, in words; reported once per file. */
  onWarning?(message: string): void;
  /** The run this one continues (`--continue`): recorded as continued-from.json, so the log folders form a chain. */
  continuedFrom?: { logDir?: string; question: string; winner?: string };
}

export class RunRecorder {
  readonly logDir: string;
  private readonly log: RunLog;
  private readonly status: StatusWriter;
  private mcpFile: WriteStream | undefined;
  readonly statusPaths: string[];

  constructor(
    private readonly options: RecordOptions,
    state: RunState,
  ) {
    this.logDir = options.logDir;
    this.log = new RunLog(options.logDir);
    this.statusPaths = [join(options.logDir, 'status.json'), ...(options.statusFiles ?? [])];
    this.status = new StatusWriter(this.statusPaths, () => buildStatus(state, options.logDir), 250, (path, err) => this.warn(`cannot write ${path}: ${err.message}`));
    const from = options.continuedFrom;
    if (from?.logDir) this.writeBestEffort('continued-from.json', `${JSON.stringify({ log_dir: from.logDir, question: from.question, winner: from.winner ?? null }, null, 2)}\n`);
  }

  private writeBestEffort(name: string, content: string): void {
    try {
      this.log.writeRunFile(name, content);
    } catch (err) {
      this.warn(`cannot write ${join(this.logDir, name)}: ${errorMessage(err)}`);
    }
  }

  private warn(message: string): void {
    this.options.onWarning?.(message);
  }

  onEvent(event: RunEvent): void {
    this.log.record(event);
    if (event.type !== 'text_delta' && event.type !== 'reasoning_delta') this.status.changed();
  }

  finalAnswerPath(agentId: string): string {
    return this.log.finalAnswerPath(agentId);
  }

  /** `agents/<id>/agentK.M.patch`: the change an answer version carries. */
  writeAnswerPatch(agentId: string, versionLabel: string, patch: string): void {
    this.log.writeAgentFile(agentId, `${versionLabel}.patch`, patch);
  }

  /** `final/<winner>/changes.patch`, next to answer.txt; returns its path. */
  writeWinnerChange(agentId: string, patch: string): string {
    return this.log.writeFinalFile(agentId, 'changes.patch', patch);
  }

  /** MCP server output goes to <logDir>/mcp.log, opened on first use. */
  readonly mcpLog: McpLogger = (e) => {
    if (!this.mcpFile) {
      this.mcpFile = createWriteStream(join(this.logDir, 'mcp.log'), { flags: 'a' });
      this.mcpFile.on('error', () => undefined);
    }
    this.mcpFile.write(`${new Date().toISOString()} ${e.level} ${e.server}${e.agentId ? `@${e.agentId}` : ''} ${e.source}: ${e.message}\n`);
  };

  async close(): Promise<void> {
    const mcp = this.mcpFile;
    await new Promise<void>((done) => (mcp ? mcp.end(done) : done()));
    this.status.flush();
    await this.log.close();
    if (this.log.writeError) this.warn(`the event log is incomplete: ${this.log.writeError.message}`);
  }
}
