// `npm run real-model:serve`: llama-server with a real model in the foreground, for trying MassGen against it by hand,
// with the tests' own command line (test/helpers/llama-server.ts) and greedy sampling for requests that set none.
//   npm run real-model:serve                                   # SmolLM2-135M on port 8081, one thread
//   MODEL=qwen-coder PORT=9000 MASSGEN_LLAMA_THREADS=2 npm run real-model:serve
// One thread by default: on a shared 2-core machine two threads collapse whenever the other core is busy.

import { GREEDY_SAMPLING, startLlamaServer, type RealModel } from '../../test/helpers/llama-server';

const MODELS: readonly RealModel[] = ['smollm2', 'qwen-coder'];

async function main(): Promise<void> {
  const model = (process.env.MODEL ?? 'smollm2') as RealModel;
  if (!MODELS.includes(model)) throw new Error(`MODEL must be one of ${MODELS.join(', ')}, got ${model}`);
  const port = Number(process.env.PORT ?? 8081);
  const server = await startLlamaServer({ model, port, extraArgs: GREEDY_SAMPLING, startGuardMs: 600_000, onLog: (text) => process.stderr.write(text) });
  process.stderr.write(
    [
      `[peers] ${server.model} on llama-server at ${server.origin}. Point a MassGen config at it:`,
      `  OpenAI-compatible:  backend: { type: chatcompletion, model: ${server.model}, base_url: ${server.origin}/v1 }`,
      `  Anthropic Messages: backend: { type: claude, model: ${server.model}, base_url: ${server.origin} }`,
      '[peers] Ctrl-C stops it.',
      '',
    ].join('\n'),
  );
  await server.ended;
  // Ctrl-C ends this process with the server; reaching here, the server ended on its own.
  throw new Error('llama-server ended (its log is above)');
}

main().catch((err: unknown) => {
  process.stderr.write(`[peers] ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
