// Scenario: ours vs the real upstream MassGen 0.1.97 on the same real model and server. One llama-server per model
// (the peers cache), a recording proxy in front of it; for each of 10 short questions with known answers (3 with
// --quick) a 3-agent team runs through our `massgen run` bundle and through upstream's `massgen --automation`, one
// after the other (the server has one slot). Calls per decision (a run that ended in success with a winner), and per
// question run the calls, prompt tokens (as the server reported them), wall time and ending as the system named it.
// Three variants: `qwen`, Qwen2.5-Coder-0.5B-Instruct (a tool-trained model) with the requests as each system sends
// them; `unforced`, the same on SmolLM2-135M (it never calls a tool); and `forced`, SmolLM2 where the proxy rewrites
// every request of both systems alike so that the model calls a tool (test/helpers/tool-forcing.ts).

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startLlamaServer, type LlamaServer, type RealModel } from '../../test/helpers/llama-server';
import { peerPaths } from '../../test/helpers/peers';
import { Results, fmt, type BenchContext, type Scenario } from '../lib/report';
import { forceToolCall } from '../../test/helpers/tool-forcing';
import { startRecordingProxy, type ProxyRecord, type RecordingProxy } from '../lib/real-model-proxy';
import { isCorrect, runOurs, runUpstream, type System, type SystemRun, type TeamSettings } from '../lib/real-model-runs';
import { mean, median, sum } from '../lib/stats';

interface Question {
  question: string;
  answers: string[];
}

type Variant = 'qwen' | 'unforced' | 'forced';
const VARIANTS: Variant[] = ['qwen', 'unforced', 'forced'];
const MODEL_OF: Record<Variant, RealModel> = { qwen: 'qwen-coder', unforced: 'smollm2', forced: 'smollm2' };

/**
 * One question through one system, whatever its ending. It decided if it ended as the system's success (ours: exit 0,
 * an ending by the votes or a cap; upstream: `finish_reason: completed`) naming a winner with an answer: a best answer
 * shown after every agent failed or the time ran out is not a decision.
 */
interface QuestionRun extends SystemRun {
  variant: Variant;
  q: number;
  decided: boolean;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Calls the server gave no usage for (aborted by a timeout or a kill). */
  unreported: number;
  correct: boolean;
}

const SETTINGS: Omit<TeamSettings, 'model'> = {
  agents: 3,
  temperature: 0,
  seed: 42,
  maxTokens: 256,
  maxNewAnswersPerAgent: 1,
  orchestratorTimeoutSeconds: Number(process.env.MASSGEN_REAL_BENCH_TIMEOUT) || 180,
  guardGraceSeconds: 120,
};

// Our endings that name why the run stopped (src/core/engine/events.ts EndReason).
const OUR_REASONS = new Set(['consensus', 'answer_cap', 'majority', 'max_rounds', 'timeout', 'budget', 'cancelled', 'user_stop', 'all_failed']);

function readQuestions(root: string): Question[] {
  const text = readFileSync(join(root, 'bench', 'data', 'real-model-10.jsonl'), 'utf8');
  return text.trim().split('\n').map((l) => JSON.parse(l) as Question);
}

/** Waits until the proxy has no request in flight (a killed run's request is aborted), so runs do not overlap. */
async function drained(proxy: RecordingProxy): Promise<void> {
  for (let i = 0; i < 300 && proxy.records.some((r) => r.end === null); i++) await sleep(100);
}

function countBy(xs: string[]): string {
  const counts = new Map<string, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k} ×${n}`).join(', ');
}

/** The variants to run: all, or those named in MASSGEN_REAL_BENCH_VARIANTS (comma-separated). */
function chosenVariants(): Variant[] {
  const named = process.env.MASSGEN_REAL_BENCH_VARIANTS?.split(',').map((v) => v.trim()).filter(Boolean);
  return named?.length ? VARIANTS.filter((v) => named.includes(v)) : VARIANTS;
}

// Goal ids: the unforced variant keeps the ids it had before there were variants.
const goalId = (variant: Variant, name: string) => (variant === 'unforced' ? `real_model.${name}` : `real_model.${variant}.${name}`);

function tallied(run: SystemRun, variant: Variant, q: number, records: ProxyRecord[], accepted: string[]): QuestionRun {
  const calls = records.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
  return {
    ...run,
    variant,
    q,
    calls: calls.length,
    promptTokens: sum(calls.map((r) => r.promptTokens ?? 0)),
    completionTokens: sum(calls.map((r) => r.completionTokens ?? 0)),
    unreported: calls.filter((r) => r.promptTokens === null).length,
    decided: (run.system === 'ours' ? run.exitCode === 0 : run.reason === 'completed') && run.winner !== '' && run.winner !== 'none' && run.answer.trim() !== '',
    correct: isCorrect(run.answer, accepted),
  };
}

export const realModel: Scenario = {
  name: 'real-model',
  title: 'Real model: ours vs upstream MassGen 0.1.97, teams of 3 on llama-server (Qwen2.5-Coder-0.5B, SmolLM2-135M)',
  async run(ctx: BenchContext) {
    const r = new Results();
    const paths = peerPaths();
    const massgen = join(paths.upstreamVenv, 'bin', 'massgen');
    const cli = join(ctx.dist, 'cli.js');
    const variants = chosenVariants();
    // Without the peers (a machine that never ran tools/peers/*.sh) the figures are not measured: not a crash.
    const missing = [paths.llamaServer, paths.smollm2, paths.qwenCoder, paths.chatTemplate, massgen].filter((f) => !existsSync(f));
    if (missing.length) {
      const note = `peers missing (${missing.join(', ')}): run npm run real-model:setup and bash tools/peers/upstream.sh`;
      for (const v of VARIANTS) notMeasured(r, v, note);
      return r.result();
    }
    for (const v of VARIANTS.filter((x) => !variants.includes(x))) notMeasured(r, v, 'variant not run (MASSGEN_REAL_BENCH_VARIANTS)');
    const questions = readQuestions(ctx.root).slice(0, ctx.quick ? 3 : undefined);
    const servers = new Map<RealModel, LlamaServer>();
    const runs: QuestionRun[] = [];
    try {
      for (const variant of variants) {
        const model = MODEL_OF[variant];
        if (!servers.has(model)) servers.set(model, await startLlamaServer({ model }));
        const server = servers.get(model)!;
        const settings: TeamSettings = { ...SETTINGS, model: server.model };
        // One proxy per variant, over the same server: the forced one rewrites every request of both systems alike.
        const proxy = await startRecordingProxy(server.origin, variant === 'forced' ? { rewrite: forceToolCall } : {});
        try {
          for (const [q, item] of questions.entries()) {
            // Alternate who goes first, so neither always meets a server that has just served the other.
            const order: System[] = q % 2 === 0 ? ['ours', 'upstream'] : ['upstream', 'ours'];
            for (const system of order) {
              const tag = `${variant}.${system}.q${q}`;
              const baseUrl = `${proxy.origin}/${tag}/v1`;
              const dir = join(ctx.tmp, tag);
              const run = system === 'ours' ? await runOurs(cli, dir, settings, baseUrl, item.question) : await runUpstream(massgen, dir, settings, baseUrl, item.question);
              await drained(proxy);
              const d = tallied(run, variant, q, proxy.records.filter((x) => x.tag === tag), item.answers);
              runs.push(d);
              ctx.log(`${tag}: ${d.reason}, winner ${d.winner || '-'}, ${d.calls} calls, ${fmt(d.promptTokens, 0)} prompt tok, ${(d.wallMs / 1000).toFixed(1)} s, ${d.correct ? 'correct' : 'wrong'}: ${d.answer.trim().slice(0, 60).replace(/\s+/g, ' ')}`);
            }
          }
        } finally {
          writeFileSync(join(ctx.tmp, `requests.${variant}.jsonl`), proxy.records.map((x) => JSON.stringify(x)).join('\n') + '\n');
          await proxy.close();
        }
      }
    } finally {
      for (const server of servers.values()) await server.close();
    }

    for (const variant of variants) report(r, variant, runs.filter((d) => d.variant === variant));
    r.note(
      `Both systems: ${SETTINGS.agents} agents on one llama-server (qwen: Qwen2.5-Coder-0.5B-Instruct Q4_K_M with its own template; unforced and forced: SmolLM2-135M-Instruct Q4_1 with the Qwen2.5 tool template; ${Number(process.env.MASSGEN_LLAMA_THREADS) || 1} thread(s), 1 slot, 8192 context), temperature ${SETTINGS.temperature}, max_tokens ${SETTINGS.maxTokens}, max_new_answers_per_agent ${SETTINGS.maxNewAnswersPerAgent}, orchestrator timeout ${SETTINGS.orchestratorTimeoutSeconds} s (the bench kills a run ${SETTINGS.guardGraceSeconds} s after it); upstream also gets seed ${SETTINGS.seed} (ours has no seed key; at temperature 0 the server samples greedily).`,
    );
    r.note('Calls and prompt tokens as the server reported them (usage of the last SSE chunk), per question run (one question through one system, whatever its ending); a decision = a run that ended as the system’s success (ours: exit 0; upstream: finish_reason completed) naming a winner with an answer. Answers correct: an accepted answer appears as a whole word in the final answer.');
    if (variants.includes('forced')) r.note('forced: the proxy rewrites every chat request of both systems that offers tools: tool_choice "required", parallel_tool_calls false, the assistant prefill "<tool_call>\\n", and no `vote` tool while the latest board shows "(no answers available yet)". The tool and its arguments are the model\'s.');
    r.figure('settings', { ...SETTINGS, variants, questions: questions.length });
    r.figure('runs', runs.map(({ answer, excerpt, ...d }) => ({ ...d, wallMs: Math.round(d.wallMs), answer: answer.slice(0, 200), ...(excerpt ? { excerpt: excerpt.slice(-600) } : {}) })));
    return r.result();
  },
};

function notMeasured(r: Results, variant: Variant, note: string): void {
  r.goal(goalId(variant, 'ours.named_end_in_bound'), `${variant}, ours: runs ending with a named reason in bound, share`, null, '>=', 1, '', { note });
  r.goal(goalId(variant, 'calls_ratio'), CALLS_GOAL(variant), null, '<', 1, '', { note });
}

const CALLS_GOAL = (variant: Variant) => `${variant}: calls per decision (all calls / runs that decided), ours/upstream`;

/**
 * Calls per decision ours/upstream: every call of the variant's runs over the runs that decided. A system that decided
 * nothing spent its calls on no decision: against one that decided, the ratio is 0 (or unbounded); with neither, n/a.
 */
function callsPerDecisionRatio(ours: Summary, up: Summary): { value: number | null; note?: string } {
  const note = `ours ${ours.calls} calls / ${ours.decided} decided, upstream ${up.calls} / ${up.decided}`;
  if (ours.decided === 0 && up.decided === 0) return { value: null, note: `neither system decided a question (${note})` };
  if (up.decided === 0) return { value: 0, note: `upstream decided no question: its calls per decision are unbounded (${note})` };
  if (ours.decided === 0) return { value: Infinity, note };
  return { value: ours.calls / ours.decided / (up.calls / up.decided), note };
}

type Summary = ReturnType<typeof summary>;

function summary(ds: QuestionRun[]) {
  return {
    runs: ds.length,
    decided: ds.filter((d) => d.decided).length,
    calls: sum(ds.map((d) => d.calls)),
    callsMean: mean(ds.map((d) => d.calls)),
    callsMedian: median(ds.map((d) => d.calls)),
    promptTokensMean: mean(ds.map((d) => d.promptTokens)),
    promptTokensMedian: median(ds.map((d) => d.promptTokens)),
    completionTokensMean: mean(ds.map((d) => d.completionTokens)),
    wallMsMedian: median(ds.map((d) => d.wallMs)),
    unreportedCalls: sum(ds.map((d) => d.unreported)),
    reasons: countBy(ds.map((d) => d.reason)),
    winners: countBy(ds.map((d) => d.winner || 'none')),
    correct: ds.filter((d) => d.correct).length,
  };
}

function report(r: Results, variant: Variant, runs: QuestionRun[]): void {
  const of = (system: System) => runs.filter((d) => d.system === system);
  const ours = summary(of('ours'));
  const up = summary(of('upstream'));
  for (const [name, s] of [['ours', ours], ['upstream', up]] as const) {
    const label = `${variant}, ${name}`;
    r.info(`${label}: runs that decided`, `${s.decided} / ${s.runs}`);
    r.info(`${label}: calls per decision`, s.decided ? fmt(s.calls / s.decided, 1) : `none decided (${s.calls} calls)`);
    r.info(`${label}: calls per question run`, `mean ${fmt(s.callsMean, 1)}, median ${fmt(s.callsMedian, 1)}`);
    r.info(`${label}: prompt tokens per question run`, `mean ${fmt(s.promptTokensMean, 0)}, median ${fmt(s.promptTokensMedian, 0)} (completion: mean ${fmt(s.completionTokensMean, 0)})${s.unreportedCalls ? `; ${s.unreportedCalls} call(s) aborted without usage, counted 0` : ''}`);
    r.info(`${label}: wall time per question run, median`, `${(s.wallMsMedian / 1000).toFixed(1)} s`);
    r.info(`${label}: end reasons`, s.reasons);
    r.info(`${label}: winners`, s.winners);
    r.info(`${label}: answers correct (info)`, `${s.correct} / ${s.runs}`);
  }
  r.info(`${variant}: wall time per question run, median ours/upstream`, fmt(ours.wallMsMedian / up.wallMsMedian, 2));
  r.info(`${variant}: prompt tokens per question run, mean ours/upstream`, fmt(ours.promptTokensMean / up.promptTokensMean, 2));

  const bound = (SETTINGS.orchestratorTimeoutSeconds + 30) * 1000;
  const inBound = of('ours').filter((d) => OUR_REASONS.has(d.reason) && d.wallMs <= bound).length;
  r.goal(goalId(variant, 'ours.named_end_in_bound'), `${variant}, ours: runs ending with a named reason in bound, share`, inBound / of('ours').length, '>=', 1, '', {
    note: `reason one of ${[...OUR_REASONS].join('/')}, wall ≤ timeout ${SETTINGS.orchestratorTimeoutSeconds} s + 30 s`,
  });
  const ratio = callsPerDecisionRatio(ours, up);
  r.goal(goalId(variant, 'calls_ratio'), CALLS_GOAL(variant), ratio.value, '<', 1, '', ratio.note ? { note: ratio.note } : {});

  // One log excerpt per system and ending (the first run's), not one per run: they repeat.
  for (const system of ['ours', 'upstream'] as const) {
    for (const reason of new Set(of(system).filter((d) => d.excerpt).map((d) => d.reason))) {
      const runs = of(system).filter((d) => d.excerpt && d.reason === reason);
      const d = runs[0];
      const lines = d.excerpt!.split('\n');
      const shown = system === 'upstream' ? [lines[0], ...lines.filter((l) => /ERROR/.test(l)).slice(-2)] : lines.filter((l) => /^ERROR:/.test(l));
      r.note(`${variant}, ${system}, ${reason} (${runs.length} run(s); q${d.q}, exit ${d.exitCode}): ${(shown.length ? shown : lines.slice(-3)).join(' | ').slice(0, 500)}`);
    }
  }
  r.figure(`${variant}.ours`, ours);
  r.figure(`${variant}.upstream`, up);
}
