// The project's checks on a new answer version, before it joins the board: voters then always see its results, and
// its author learns of a failure in the reply to its `new_answer`. The checks run on the run's signal, not the
// turn's: a turn that times out meanwhile still gets them (they have their own timeouts), and an identical change
// from another agent shares them. Only the run stopping or the agent being cancelled stops the wait; the checks
// themselves stop when the run does, or when the agents are done (`RunContext.settleChecks`).

import { AbortedError } from '../util/abort';
import type { AnswerChange, CheckResult } from './events';
import type { AnswerChecks } from './ports';
import type { AgentRuntime, RunContext } from './run-context';

export async function checkAnswer(ctx: RunContext, agent: AgentRuntime, checks: AnswerChecks, change: AnswerChange, turnSignal: AbortSignal): Promise<CheckResult[]> {
  const label = `${agent.label}.${(ctx.board.latest(agent.spec.id)?.version ?? 0) + 1}`;
  const agentId = agent.spec.id;
  ctx.emit({ type: 'checks_started', agentId, label, names: [...checks.names] });
  const pending = checks.run({ label, change }, ctx.checksSignal, (result) => ctx.emit({ type: 'check_finished', agentId, label, result }));
  ctx.trackChecks(pending);
  await untilSettledOrAborted(pending, turnSignal);
  // The checks outlast a turn timeout; by their end the agent may be gone or the run decided without this answer.
  if (agent.failed || ctx.stopCause || ctx.decided) throw new AbortedError();
  return pending;
}

function untilSettledOrAborted(pending: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    pending.then(done, done);
  });
}
