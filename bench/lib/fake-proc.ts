// The fake OpenAI-compatible server (test/fakes/openai-server.ts) in a process of its own, so its timers and writes
// do not share an event loop with the engine under test. It plays MassGen agents with `coordinationScript` and times
// every stream itself: from the moment the request is handled to the moment the reply has been written out. The
// parent talks to it over IPC (see fake-client.ts).

import { performance } from 'node:perf_hooks';
import { coordinationScript, startFakeOpenAI, type AgentScript, type FakeHandler } from '../../test/fakes/openai-server';

export interface StreamTiming {
  model: string;
  /** performance.now() in this process when the request was handled, and when its reply ended. */
  start: number;
  end: number;
  outcome: string;
  /** The coordination call it answered with (new_answer / vote) or 'text'. */
  kind: string;
  /** Request body size in characters. */
  bodyChars: number;
}

export type ToFake =
  | { type: 'configure'; agents: Record<string, AgentScript>; defaults?: AgentScript }
  | { type: 'timings' }
  | { type: 'reset' };

export type FromFake = { type: 'ready'; baseUrl: string; timeOrigin: number } | { type: 'timings'; timings: StreamTiming[] };

async function main(): Promise<void> {
  let script: FakeHandler = coordinationScript();
  let timings: StreamTiming[] = [];
  const server = await startFakeOpenAI(async (request) => {
    const start = performance.now();
    const reply = await script(request);
    const kind = 'toolCalls' in reply && reply.toolCalls?.length ? reply.toolCalls[0].name : 'error' in reply ? 'error' : 'text';
    const timing: StreamTiming = { model: request.body.model, start, end: NaN, outcome: 'pending', kind, bodyChars: JSON.stringify(request.body).length };
    timings.push(timing);
    void request.outcome.then((outcome) => {
      timing.end = performance.now();
      timing.outcome = outcome;
    });
    return reply;
  });
  process.on('message', (msg: ToFake) => {
    if (msg.type === 'configure') script = coordinationScript(msg.agents, msg.defaults);
    else if (msg.type === 'reset') timings = [];
    else if (msg.type === 'timings') process.send!({ type: 'timings', timings } satisfies FromFake);
  });
  process.on('disconnect', () => {
    void server.close().then(() => process.exit(0));
  });
  process.send!({ type: 'ready', baseUrl: server.baseUrl, timeOrigin: performance.timeOrigin } satisfies FromFake);
}

void main();
