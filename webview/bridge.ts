// The webview's side of the VS Code API: messages to the host (typed, versioned) and the page state VS Code keeps
// across reloads (which run was shown, which columns and sections were collapsed).

/// <reference types="vscode-webview" />
import { webviewMessage, type WebviewMessage } from '../src/protocol/messages';

export interface UiState {
  runId: string | null;
  follow: boolean;
  /** Agent ids whose columns are collapsed. */
  collapsed: string[];
  /** Sections the user closed. */
  closed: string[];
}

export type Surface = 'view' | 'panel';

export interface Host {
  readonly surface: Surface;
  post<T extends WebviewMessage['type']>(body: Omit<Extract<WebviewMessage, { type: T }>, 'v'> & { type: T }): void;
  readonly ui: UiState;
  saveUi(patch: Partial<UiState>): void;
}

function validUi(raw: unknown): UiState {
  const s = (raw && typeof raw === 'object' ? raw : {}) as Partial<UiState>;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, 200) : []);
  return {
    runId: typeof s.runId === 'string' ? s.runId : null,
    follow: typeof s.follow === 'boolean' ? s.follow : true,
    collapsed: strings(s.collapsed),
    closed: strings(s.closed),
  };
}

export function connectHost(): Host {
  const api = acquireVsCodeApi<UiState>();
  const ui = validUi(api.getState());
  const surface: Surface = document.body.dataset.surface === 'panel' ? 'panel' : 'view';
  return {
    surface,
    ui,
    post: (body) => api.postMessage(webviewMessage(body as Parameters<typeof webviewMessage>[0])),
    saveUi(patch) {
      Object.assign(ui, patch);
      api.setState({ ...ui });
    },
  };
}
