// A coding agent's program as a ModelProvider, so the engine runs it like any agent: each `complete` is one turn of
// the program in its own folder. The program calls the coordination tools (`new_answer`, `vote`) on the `massgen` MCP
// server; each call is acknowledged at once ("judged when your turn ends") and handed to the engine as the tool
// calls of the turn's response, once the turn has ended, so its usage is complete and the snapshot of its folder
// holds every edit of the turn. The engine's verdict reaches the program with its next message.
//
// The session lives across turns. When the engine's conversation no longer continues what the session was told (a
// failed turn undone, a compacted conversation) or a turn was stopped, the next turn starts a new session with the
// whole conversation.

import type { AgentToolbox } from '../engine/ports';
import { ProviderError, type ChatMessage, type CompleteOptions, type ModelProvider, type ModelRequest, type ModelResponse, type ToolCall, type Usage } from '../providers/types';
import type { CoordinationEndpoint, HarnessDriver, HarnessSession, HarnessSink } from './driver';
import { continues, followUp, wholeConversation } from './render';

/** What the program hears back from a coordination call: the engine judges it after the turn. */
export const CALL_RECEIVED =
  'Received. The coordinator judges it when your turn ends and tells you the outcome in its next message: ' +
  'end your turn now, with one short line.';

export class HarnessProvider implements ModelProvider {
  readonly description: string;
  readonly model: string;
  private session: HarnessSession | undefined;
  /** The system prompt the session was started with. */
  private system = '';
  /** The engine's messages the session has been told, as objects (see render.ts `continues`). */
  private conveyed: ChatMessage[] = [];
  /** Coordination calls of the turn running now. */
  private calls: ToolCall[] = [];
  private callCount = 0;
  private turnRunning = false;
  /** The end of the last turn's cleanup (a stopped turn closes its session): the next turn waits for it. */
  private settled: Promise<void> = Promise.resolve();
  /** Set by close(): a session that opens afterwards is closed at once, never run. */
  private closed = false;

  /** Stops read-only tool calls still running when the run closes the program. */
  private readonly lifetime = new AbortController();
  private readingStarted: Promise<void> | undefined;
  private reads = 0;

  /** `reading`: the agent's read-only file tools (peers/, context/), known once the run has made its folders. */
  constructor(
    private readonly driver: HarnessDriver,
    private readonly reading: () => AgentToolbox | undefined = () => undefined,
  ) {
    this.description = driver.description;
    this.model = driver.model;
  }

  async complete(request: ModelRequest, options: CompleteOptions): Promise<ModelResponse> {
    const { signal } = options;
    // A retry may come while the stopped turn before it still closes its program.
    await this.settled;
    if (this.turnRunning) throw new ProviderError('invalid_request', 'this agent program is already running a turn');
    if (this.closed) throw new ProviderError('aborted', 'the run has ended: this agent program is stopped');
    let message: string;
    if (this.session && continues(request.messages, this.conveyed)) {
      message = followUp(request.messages.slice(this.conveyed.length));
      // The coordinator's rules changed (vote only, after the answer cap): said once, as the session keeps its first prompt.
      if (request.system !== this.system) message = `The coordinator's instructions are now:\n${request.system}\n\n${message}`;
      this.system = request.system;
    } else {
      await this.closeSession();
      this.system = request.system;
      const session = await this.driver.open({ system: request.system, coordination: { tools: request.tools, onCall: (name, args) => this.record(name, args), reading: await this.readingEndpoint(signal) } }, signal);
      if (this.closed || signal.aborted) {
        await session.close();
        throw new ProviderError('aborted', 'stopped while the agent program started');
      }
      this.session = session;
      message = wholeConversation(request.messages);
    }
    this.conveyed = request.messages.slice();
    this.calls = [];
    const usage: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
    let reported = false;
    const sink: HarnessSink = {
      text: (text) => {
        options.onStarted?.();
        options.onDelta?.({ type: 'text', text });
      },
      reasoning: (text) => {
        options.onStarted?.();
        options.onDelta?.({ type: 'reasoning', text });
      },
      tool: (event) => {
        options.onStarted?.();
        options.onDelta?.(event.phase === 'call' ? { type: 'tool_call', ...event } : { type: 'tool_result', ...event });
      },
      usage: (u) => {
        reported = true;
        usage.inputTokens += u.inputTokens;
        usage.cachedInputTokens += u.cachedInputTokens;
        usage.outputTokens += u.outputTokens;
      },
    };
    this.turnRunning = true;
    try {
      const { text } = await this.session.run(message, sink, signal);
      const calls = this.calls;
      return { text, toolCalls: calls, stopReason: calls.length ? 'tool_calls' : 'stop', ...(reported ? { usage } : {}) };
    } catch (err) {
      // A stopped or failed turn leaves the session somewhere the engine's conversation is not.
      this.settled = this.closeSession();
      await this.settled;
      throw err;
    } finally {
      this.turnRunning = false;
      this.calls = [];
    }
  }

  /** Stops the program; the run calls it when it ends, however it ends. */
  async close(): Promise<void> {
    this.closed = true;
    this.lifetime.abort();
    await this.closeSession();
    if (this.readingStarted) await this.reading()?.close?.().catch(() => undefined);
  }

  /** The read-only tools for the session's `massgen` server, started once; none when the run gave the agent none. */
  private async readingEndpoint(signal: AbortSignal): Promise<CoordinationEndpoint['reading']> {
    const toolbox = this.reading();
    if (!toolbox) return undefined;
    // A toolbox that fails to start still serves what it can, as for any agent.
    await (this.readingStarted ??= toolbox.start?.(signal).catch(() => undefined) ?? Promise.resolve());
    return {
      tools: toolbox.tools,
      call: (name, args) => toolbox.execute({ id: `massgen_read_${++this.reads}`, name, arguments: JSON.stringify(args ?? {}) }, this.lifetime.signal),
    };
  }

  private record(name: string, args: unknown): string {
    if (!this.turnRunning) return 'No turn of yours is running: the coordinator ignored this call.';
    this.calls.push({ id: `massgen_call_${++this.callCount}`, name, arguments: JSON.stringify(args ?? {}) });
    return CALL_RECEIVED;
  }

  private async closeSession(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.conveyed = [];
    await session?.close();
  }
}
