// The run's record on disk, when a front end asks for one: the log directory (events.jsonl, answers, votes, the
// final answer, each answer's patch and the winner's change in workspace runs, MCP server output) and status.json,
// kept current at most every 250 ms and written atomically. Best effort: a full disk never stops the run. The log
// folder's first problem is reported once and ends the log (the run goes on without it); another status file that
// cannot be written is reported once on its own.

import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '../engine/events';
import type { RunState } from '../engine/run-state';
import type { McpLogger } from '../mcp';
import { RunLog } from '../status/run-log';
import { buildStatus, StatusWriter } from '../status/status-file';

export interface RecordOptions {
  /** The run's log directory (created if missing). */
  logDir: string;
  /** More places to keep a status.json (the CLI's --status-file); <logDir>/status.json is always written. */
  statusFiles?: string[];
  /** The run this one continues (`--continue`): recorded as continued-from.json, so the log folders form a chain. */
  continuedFrom?: { logDir?: string; question: string; winner?: string };
}

export class RunRecorder {
  readonly logDir: string;
  private readonly log: RunLog;
  private readonly status: StatusWriter;
  private mcpFile: WriteStream | undefined;
  readonly statusPaths: string[];
  private logFailed = false;

  /** `warn`: a write problem, in words. */
  constructor(
    options: RecordOptions,
    state: RunState,
    private readonly warn: (message: string) => void,
  ) {
    this.logDir = options.logDir;
    this.log = new RunLog(options.logDir, (err) => this.failLog(err));
    const logStatus = join(options.logDir, 'status.json');
    this.statusPaths = [logStatus, ...(options.statusFiles ?? [])];
    this.status = new StatusWriter(this.statusPaths, () => buildStatus(state, options.logDir), 250, (path, err) => (path === logStatus ? this.failLog(err) : this.warn(`cannot write ${path}: ${err.message}`)));
    const from = options.continuedFrom;
    if (from?.logDir) this.log.writeRunFile('continued-from.json', `${JSON.stringify({ log_dir: from.logDir, question: from.question, winner: from.winner ?? null }, null, 2)}\n`);
  }

  /** True while everything asked of the log folder was written: the paths `finalAnswerPath` names exist. */
  get intact(): boolean {
    return !this.logFailed;
  }

  private failLog(err: Error): void {
    if (this.logFailed) return;
    this.logFailed = true;
    this.warn(`the run log in ${this.logDir} stopped (the run goes on without it): ${err.message}`);
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
  }
}
