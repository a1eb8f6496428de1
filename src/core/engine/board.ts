// The answer board: every answer version of the run, the latest per agent, and a revision number that grows
// with each new answer. A vote is current only while the revision it saw is still the board's revision.

import type { AnswerChange, CheckResult } from './events';
import type { BoardEntry } from './prompts';

export interface AnswerVersion {
  agentId: string;
  /** agentK */
  agentLabel: string;
  /** agentK.M */
  label: string;
  version: number;
  content: string;
  /** Board revision this answer created. */
  revision: number;
  /** In a workspace run: the snapshot of the agent's copy bound to this version. */
  change?: AnswerChange;
  /** How much of the board its author had seen when writing it (the board revision), for the no-votes fallback. */
  informed: number;
  /** In a run with checks: their results on this version. */
  checks?: CheckResult[];
}

export class Board {
  private readonly all: AnswerVersion[] = [];
  private readonly latestByAgent = new Map<string, AnswerVersion>();
  revision = 0;

  /** @param order agent ids in config order, with their anonymous labels */
  constructor(private readonly order: { id: string; label: string }[]) {}

  /** `informed`: the board revision the author had seen; `change`: the answer's snapshot in a workspace run. */
  add(agentId: string, content: string, { informed = 0, change, checks }: { informed?: number; change?: AnswerChange; checks?: CheckResult[] } = {}): AnswerVersion {
    const agent = this.order.find((a) => a.id === agentId);
    if (!agent) throw new Error(`unknown agent ${agentId}`);
    const version = (this.latestByAgent.get(agentId)?.version ?? 0) + 1;
    this.revision++;
    const answer: AnswerVersion = {
      agentId,
      agentLabel: agent.label,
      label: `${agent.label}.${version}`,
      version,
      content,
      revision: this.revision,
      informed,
      ...(change ? { change } : {}),
      ...(checks ? { checks } : {}),
    };
    this.all.push(answer);
    this.latestByAgent.set(agentId, answer);
    return answer;
  }

  latest(agentId: string): AnswerVersion | undefined {
    return this.latestByAgent.get(agentId);
  }

  /** Latest answer per agent, in config order. */
  current(): AnswerVersion[] {
    return this.order.flatMap((a) => this.latestByAgent.get(a.id) ?? []);
  }

  /** Answers added after `revision`. Answer k (from 0) created revision k + 1, so this is a slice, not a scan of the run. */
  since(revision: number): AnswerVersion[] {
    return this.all.slice(Math.max(0, revision));
  }

  history(): readonly AnswerVersion[] {
    return this.all;
  }

  get hasAnswers(): boolean {
    return this.all.length > 0;
  }
}

export function toBoardEntry(answer: AnswerVersion): BoardEntry {
  return {
    label: answer.agentLabel,
    versionLabel: answer.label,
    content: answer.content,
    ...(answer.change ? { change: answer.change } : {}),
    ...(answer.checks ? { checks: answer.checks } : {}),
  };
}
