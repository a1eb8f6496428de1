// Hand-written fakes of the vscode.lm surface, with the same shapes as the real classes, so the `vscode-lm` provider
// and the team picking run in plain Node: chat messages and parts, cancellation tokens, LanguageModelError, and
// scripted chat models.
import type * as vscode from 'vscode';
import type { LmApi } from '../../src/host/lm/provider';

export class FakeTextPart {
  constructor(public value: string) {}
}
export class FakeToolCallPart {
  constructor(public callId: string, public name: string, public input: object) {}
}
export class FakeToolResultPart {
  constructor(public callId: string, public content: unknown[]) {}
}
export type FakePart = FakeTextPart | FakeToolCallPart | FakeToolResultPart;
export const USER = 1;
export const ASSISTANT = 2;
export class FakeChatMessage {
  static User(content: string | FakePart[], name?: string) {
    return new FakeChatMessage(USER, content, name);
  }
  static Assistant(content: string | FakePart[], name?: string) {
    return new FakeChatMessage(ASSISTANT, content, name);
  }
  content: FakePart[];
  constructor(public role: number, content: string | FakePart[], public name?: string) {
    this.content = typeof content === 'string' ? [new FakeTextPart(content)] : content;
  }
}

export class FakeToken {
  isCancellationRequested = false;
  private listeners: Array<() => void> = [];
  onCancellationRequested = (listener: () => void) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire() {
    this.isCancellationRequested = true;
    for (const l of this.listeners.splice(0)) l();
  }
  /** Resolves once cancelled. */
  cancelled(): Promise<void> {
    return new Promise((resolve) => (this.isCancellationRequested ? resolve() : this.onCancellationRequested(resolve)));
  }
}
export class FakeCancellationTokenSource {
  static created: FakeCancellationTokenSource[] = [];
  token = new FakeToken();
  cancelCalls = 0;
  disposed = false;
  constructor() {
    FakeCancellationTokenSource.created.push(this);
  }
  cancel() {
    this.cancelCalls++;
    if (!this.disposed) this.token.fire();
  }
  dispose() {
    this.disposed = true;
  }
}

export class FakeLanguageModelError extends Error {
  static NoPermissions(message?: string) {
    return new FakeLanguageModelError(message ?? '', 'NoPermissions');
  }
  static Blocked(message?: string) {
    return new FakeLanguageModelError(message ?? '', 'Blocked');
  }
  static NotFound(message?: string) {
    return new FakeLanguageModelError(message ?? '', 'NotFound');
  }
  constructor(message: string, readonly code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LanguageModelError';
  }
}

export interface SentRequest {
  messages: FakeChatMessage[];
  options: vscode.LanguageModelChatRequestOptions | undefined;
  token: FakeToken | undefined;
}

/** What a scripted model does for one request: yield parts; may wait for cancellation, hang, or throw. */
export type Script = (token: FakeToken) => AsyncIterable<unknown>;

export interface FakeModel extends vscode.LanguageModelChat {
  sent: SentRequest[];
  counted: Array<string | FakeChatMessage>;
}

export function fakeModel(
  init: { vendor?: string; family?: string; id?: string; script?: Script; sendError?: unknown; countTokens?: (x: string | FakeChatMessage) => number } = {},
): FakeModel {
  const vendor = init.vendor ?? 'copilot';
  const family = init.family ?? 'gpt-4o';
  const sent: SentRequest[] = [];
  const counted: Array<string | FakeChatMessage> = [];
  const model = {
    id: init.id ?? `${vendor}-${family}`,
    name: family,
    vendor,
    family,
    version: '1',
    maxInputTokens: 100_000,
    sent,
    counted,
    async sendRequest(messages: FakeChatMessage[], options?: vscode.LanguageModelChatRequestOptions, token?: FakeToken) {
      sent.push({ messages, options, token });
      if (init.sendError) throw init.sendError;
      const stream = (init.script ?? textScript('ok'))(token ?? new FakeToken());
      return { stream, text: (async function* () {})() };
    },
    async countTokens(x: string | FakeChatMessage) {
      counted.push(x);
      if (init.countTokens) return init.countTokens(x);
      const text = typeof x === 'string' ? x : x.content.map((p) => (p instanceof FakeTextPart ? p.value : JSON.stringify(p))).join('');
      return text.length;
    },
  };
  return model as unknown as FakeModel;
}

export function textScript(...chunks: string[]): Script {
  return async function* () {
    for (const chunk of chunks) yield new FakeTextPart(chunk);
  };
}

export function fakeLm(models: vscode.LanguageModelChat[]) {
  const selectors: Array<vscode.LanguageModelChatSelector | undefined> = [];
  return {
    selectors,
    async selectChatModels(selector?: vscode.LanguageModelChatSelector) {
      selectors.push(selector);
      return models.filter((m) => (!selector?.vendor || m.vendor === selector.vendor) && (!selector?.family || m.family === selector.family));
    },
  };
}

/** `vscode.l10n.t` without a translation bundle: the English text with its {0}, {1}… filled in. */
export function englishL10n(message: string, ...args: Array<string | number | boolean>): string {
  return message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
}

export function fakeApi(models: vscode.LanguageModelChat[] = []): LmApi {
  return {
    lm: fakeLm(models),
    LanguageModelChatMessage: FakeChatMessage,
    LanguageModelTextPart: FakeTextPart,
    LanguageModelToolCallPart: FakeToolCallPart,
    LanguageModelToolResultPart: FakeToolResultPart,
    CancellationTokenSource: FakeCancellationTokenSource,
    LanguageModelError: FakeLanguageModelError,
    LanguageModelChatToolMode: { Auto: 1, Required: 2 },
    l10n: { t: englishL10n },
  } as unknown as LmApi;
}
