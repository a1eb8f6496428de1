// What massgen_run hands back: the structured result (RUN_OUTPUT) and the same as text for clients that read only
// text. Usage and the tally come from buildStatus, so they are exactly what the run's status.json says.

import type { Verification } from '../../core/config/types';
import type { RunState } from '../../core/engine/run-state';
import { checksSummaryLine, versionChecks } from '../../protocol/checks';
import type { SessionResult } from '../../core/run/session';
import { costText, inputTokensText } from '../../core/status/describe';
import { buildStatus } from '../../core/status/status-file';
import { oneLine } from '../../core/util/text';
import type { RunOutput } from './schemas';

/** Larger patches stay in their file only: a tool result goes into the caller's context window. */
export const MAX_PATCH_CHARS = 200_000;

/** The run's checks as asked for: the commands, the mode, and why they did not run (undefined: they ran). */
export interface ChecksAsked {
  commands: string[];
  verification: Verification;
  notRun?: string;
}

function checksOutput(state: RunState, asked: ChecksAsked): NonNullable<RunOutput['checks']> {
  const versions = Object.fromEntries(
    Object.entries(state.checks).map(([label, c]) => [
      label,
      {
        status: versionChecks(state, label, true)?.kind ?? 'not-run',
        results: c.results.map((r) => ({ name: r.name, status: r.status, required: r.required, exit_code: r.exitCode, duration_seconds: r.durationMs / 1000, cached: r.cached, output: r.output })),
      },
    ]),
  );
  const v = state.winner?.verification;
  return {
    requested: asked.commands,
    verification: asked.verification,
    run: asked.notRun === undefined,
    versions,
    winner: v ? { status: v.status, overruled: v.overruled ?? null } : null,
    note: asked.notRun ?? null,
  };
}

export function runOutput(result: SessionResult, state: RunState, logDir: string, extra: { checks?: ChecksAsked; notes: string[] }): RunOutput {
  const status = buildStatus(state, logDir);
  const tally = status.results.votes;
  const winner = state.agents.find((a) => a.id === result.winnerId);
  const patch = result.change?.patch;
  return {
    answer: result.finalAnswer,
    winner: winner && result.winnerLabel ? { agent_id: winner.id, label: result.winnerLabel, model: winner.model } : null,
    end_reason: result.reason,
    tally,
    answers: state.agents.flatMap((a) => (a.latestAnswerLabel ? [{ label: a.latestAnswerLabel, agent_id: a.id, model: a.model, votes: tally[a.latestAnswerLabel] ?? 0 }] : [])),
    usage: status.usage,
    duration_seconds: Math.round(result.durationMs) / 1000,
    log_dir: logDir,
    answer_file: result.answerFile ?? null,
    change: result.change
      ? { files: result.change.files, patch: patch !== undefined && patch.length <= MAX_PATCH_CHARS ? patch : null, patch_file: result.changeFile ?? null }
      : null,
    checks: extra.checks ? checksOutput(state, extra.checks) : null,
    notes: extra.notes,
    error: result.error ?? null,
  };
}

/** The result as text: the answer first, then one line each for the winner, votes, usage, log and change. */
export function runText(out: RunOutput, state: RunState): string {
  const head = out.answer ?? `No answer (${out.end_reason}).${out.error ? ` ${out.error}` : ''}`;
  const votes = Object.entries(out.tally).map(([label, n]) => `${label} ${n}`).join(', ') || 'no current votes';
  const lines = [
    out.winner ? `Winner: ${out.winner.label} (${out.winner.agent_id}, ${out.winner.model}); ended by ${out.end_reason}` : `Ended by ${out.end_reason} without a winner`,
    `Votes: ${votes}`,
    `Usage: ${out.usage.calls} model call(s), ${inputTokensText(out.usage.input_tokens, out.usage.cached_input_tokens)}, ${out.usage.output_tokens} output tokens; ${costText(state.usage)}; ${out.duration_seconds.toFixed(1)} s`,
    `Log directory: ${out.log_dir}`,
  ];
  if (out.change) {
    const files = out.change.files.map((f) => `${f.path} (${f.status})`).join(', ');
    lines.push(out.change.files.length ? `Change (not applied): ${out.change.files.length} file(s): ${files}${out.change.patch_file ? `; patch: ${out.change.patch_file}` : ''}` : 'Change: none (the winner changed no files)');
    if (out.change.files.length && out.change.patch === null) lines.push(`The patch is larger than ${MAX_PATCH_CHARS} characters: read it from the patch file.`);
  }
  if (out.checks) lines.push(out.checks.note ? `Checks not run: ${out.checks.requested.join('; ')}. ${out.checks.note}` : (checksSummaryLine(state) ?? `Checks (${out.checks.requested.join('; ')}): no answer changed files to check.`));
  // A failing check's last line, per version: what the caller fixes or weighs.
  for (const [label, v] of Object.entries(out.checks?.versions ?? {})) {
    for (const r of v.results.filter((x) => x.status !== 'passed' && x.status !== 'cancelled')) {
      const last = r.output.trimEnd().split('\n').pop() ?? '';
      lines.push(`${label} ${r.name}: ${r.status}${r.exit_code !== null && r.status === 'failed' ? ` (exit ${r.exit_code})` : ''}${last ? ` — ${oneLine(last, 160)}` : ''}`);
    }
  }
  for (const note of out.notes) lines.push(`Note: ${note}`);
  return `${head}\n\n---\n${lines.join('\n')}`;
}
