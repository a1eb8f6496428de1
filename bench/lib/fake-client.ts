// Starts bench/lib/fake-proc.ts as a child process and drives it over IPC.

import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { AgentScript } from '../../test/fakes/openai-server';
import type { FromFake, StreamTiming, ToFake } from './fake-proc';

export interface FakeProcess {
  baseUrl: string;
  /** The child's performance.timeOrigin: its stream timings + this = epoch milliseconds. */
  timeOrigin: number;
  configure(agents: Record<string, AgentScript>, defaults?: AgentScript): void;
  reset(): void;
  timings(): Promise<StreamTiming[]>;
  close(): Promise<void>;
}

export async function startFakeProcess(): Promise<FakeProcess> {
  const child: ChildProcess = fork(join(__dirname, 'fake-proc.ts'), [], { execArgv: ['--require', 'tsx/cjs'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { baseUrl, timeOrigin } = await new Promise<{ baseUrl: string; timeOrigin: number }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`fake server process exited early (code ${code})`)));
    child.once('message', (m: FromFake) => (m.type === 'ready' ? resolve(m) : reject(new Error('unexpected message'))));
  });
  child.removeAllListeners('exit');
  const send = (m: ToFake) => child.send(m);
  return {
    baseUrl,
    timeOrigin,
    configure: (agents, defaults) => send({ type: 'configure', agents, defaults }),
    reset: () => send({ type: 'reset' }),
    timings: () =>
      new Promise((resolve) => {
        const onMessage = (m: FromFake) => {
          if (m.type !== 'timings') return;
          child.off('message', onMessage);
          resolve(m.timings);
        };
        child.on('message', onMessage);
        send({ type: 'timings' });
      }),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.disconnect();
      }),
  };
}
