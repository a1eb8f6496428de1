// The vote viewer's VS Code glue: the sidebar webview view (`massgen.voteViewer`), the editor panel (with a
// serializer, so it comes back after a window reload), the two commands, past runs in the workspace's extension
// storage. Everything else (runs, snapshots, deltas, actions) is in hub.ts, which has no `vscode` import.
// extension.ts registers the provider, serializer and commands at activation and hands them to this object when
// they are first used, so activating the extension loads none of this.
//
// retainContextWhenHidden is off: a hidden webview loses its page, and on being shown again the page asks for a
// snapshot, which renders even a large run (8 agents × 4 answers of 12 KB, a 430 KB snapshot) in about 0.1 s
// (measured by test/webview/viewer.test.ts), so keeping hidden pages alive is not worth their memory.

import * as vscode from 'vscode';
import { PANEL_VIEW_TYPE, VIEW_ID, type ShowVoteViewerArgs } from '../ids';
import type { KeyStore } from '../keys';
import type { RunManager } from '../run/manager';
import { continueWithNote } from '../run/continue-note';
import type { RunPreviews } from '../run/previews';
import { RunHistory, type HistoryFs } from './history';
import { makeNonce, viewerHtml } from './html';
import type { ViewerConnection } from './connection';
import { ViewerHub, type ViewerPort } from './hub';
import { watchTeamSetup } from './team-setup';

type Log = Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>;

/** Page state the webview keeps with setState (the panel serializer and the view get it back). */
interface PageState {
  runId?: string | null;
  follow?: boolean;
}

class WorkspaceFsHistory implements HistoryFs {
  constructor(private readonly dir: vscode.Uri) {}

  async read(name: string): Promise<string | undefined> {
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.dir, name)));
    } catch {
      return undefined;
    }
  }

  async write(name: string, content: string): Promise<void> {
    await vscode.workspace.fs.createDirectory(this.dir);
    const tmp = vscode.Uri.joinPath(this.dir, `${name}.${makeNonce().replace(/[^A-Za-z0-9]/g, '')}.tmp`);
    await vscode.workspace.fs.writeFile(tmp, new TextEncoder().encode(content));
    await vscode.workspace.fs.rename(tmp, vscode.Uri.joinPath(this.dir, name), { overwrite: true });
  }

  async remove(name: string): Promise<void> {
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.dir, name));
  }
}

/** The vote viewer's entry points, wired to VS Code by extension.ts. */
export interface VoteViewer extends vscode.WebviewViewProvider, vscode.WebviewPanelSerializer, vscode.Disposable {
  /** `massgen.showVoteViewer`: the sidebar view, showing `runId` (or following the latest run). */
  show(args?: ShowVoteViewerArgs): Promise<void>;
  /** `massgen.openVoteViewerPanel`: the viewer as an editor tab. */
  openPanel(args?: { runId?: string; preserveFocus?: boolean }): void;
  /** Work out the next run's team again (something it depends on changed outside VS Code's events). */
  refreshSetup(): void;
}

/** What the viewer follows: the runs, their winners' apply states, the keys (for the next team's problems). */
export interface VoteViewerDeps {
  runs: RunManager;
  previews: RunPreviews;
  keys: KeyStore;
}

/** The vote viewer: the webview view, the editor panel and its serializer, the two commands' bodies. `log`: the
 * extension's log channel. */
export function createVoteViewer(context: vscode.ExtensionContext, { runs, previews, keys }: VoteViewerDeps, log: Log): VoteViewer {
  const bundleRoot = vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview');
  const mediaRoot = vscode.Uri.joinPath(context.extensionUri, 'media');
  const storage = vscode.Uri.joinPath(context.storageUri ?? vscode.Uri.joinPath(context.globalStorageUri, 'no-workspace'), 'vote-viewer');
  const history = new RunHistory(new WorkspaceFsHistory(storage), log);

  let panel: vscode.WebviewPanel | undefined;
  let panelConnection: ViewerConnection | undefined;
  let view: vscode.WebviewView | undefined;
  let viewConnection: ViewerConnection | undefined;
  /** A run asked for (showVoteViewer { runId }) before the view was resolved. */
  let pendingViewRun: string | null | undefined;

  const team = watchTeamSetup(keys, context.secrets, () => void hub.setupChanged());
  const hub = new ViewerHub(runs, history, {
    executeCommand: (command, ...args) => vscode.commands.executeCommand(command, ...args),
    copy: (text) => vscode.env.clipboard.writeText(text),
    openExternal: (url) => vscode.env.openExternal(vscode.Uri.parse(url, true)),
    openPanel: (runId) => openPanel({ runId: runId ?? undefined }),
    setup: () => team.get(),
    applyState: (runId) => previews.state(runId),
    continueWithNote: (runId, noteId) => continueWithNote({ runs, previews }, runId, noteId),
    log,
  });
  const applyListener = previews.onDidChange((runId) => hub.applyChanged(runId));

  const configure = (webview: vscode.Webview, surface: 'view' | 'panel') => {
    webview.options = { enableScripts: true, enableForms: false, enableCommandUris: false, localResourceRoots: [bundleRoot, mediaRoot] };
    webview.html = viewerHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(bundleRoot, 'main.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(bundleRoot, 'main.css')).toString(),
      codiconUri: webview.asWebviewUri(vscode.Uri.joinPath(bundleRoot, 'codicon.css')).toString(),
      surface,
    });
  };

  const port = (webview: vscode.Webview, visibility: (listener: (visible: boolean) => void) => vscode.Disposable, setTitle?: (title: string) => void): ViewerPort => ({
    post: (message) => webview.postMessage(message),
    onMessage: (listener) => webview.onDidReceiveMessage(listener),
    onVisibility: visibility,
    setTitle,
  });

  const attachPanel = (p: vscode.WebviewPanel, state: PageState | undefined, runId?: string) => {
    panel = p;
    p.iconPath = vscode.Uri.joinPath(mediaRoot, 'massgen.svg');
    configure(p.webview, 'panel');
    const connection = hub.connect(
      port(
        p.webview,
        (listener) => p.onDidChangeViewState((e) => listener(e.webviewPanel.visible)),
        (title) => (p.title = title),
      ),
      { runId: state?.runId ?? null, follow: state?.follow ?? true },
    );
    if (runId) connection.show(runId);
    panelConnection = connection;
    p.onDidDispose(() => {
      connection.dispose();
      if (panel === p) {
        panel = undefined;
        panelConnection = undefined;
      }
    });
  };

  const openPanel = (args?: { runId?: string; preserveFocus?: boolean }) => {
    const runId = typeof args?.runId === 'string' ? args.runId : undefined;
    if (panel) {
      panel.reveal(undefined, args?.preserveFocus);
      if (runId) panelConnection?.show(runId);
      return;
    }
    const p = vscode.window.createWebviewPanel(
      PANEL_VIEW_TYPE,
      vscode.l10n.t('MassGen Vote Viewer'),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: args?.preserveFocus },
      { enableScripts: true, enableForms: false, enableCommandUris: false, enableFindWidget: true, localResourceRoots: [bundleRoot, mediaRoot] },
    );
    attachPanel(p, { runId: runId ?? null, follow: !runId }, runId ?? viewConnection?.shownRunId ?? undefined);
  };

  return {
    resolveWebviewView(v, ctx) {
      view = v;
      configure(v.webview, 'view');
      const state = ctx.state as PageState | undefined;
      const connection = hub.connect(
        port(v.webview, (listener) => v.onDidChangeVisibility(() => listener(v.visible))),
        { runId: state?.runId ?? null, follow: state?.follow ?? true },
      );
      if (pendingViewRun !== undefined) connection.show(pendingViewRun);
      pendingViewRun = undefined;
      viewConnection = connection;
      v.onDidDispose(() => {
        connection.dispose();
        if (view === v) {
          view = undefined;
          viewConnection = undefined;
        }
      });
    },
    async deserializeWebviewPanel(p, state) {
      attachPanel(p, state as PageState | undefined);
    },
    async show(args) {
      const runId = typeof args?.runId === 'string' ? args.runId : null;
      if (viewConnection) viewConnection.show(runId);
      else pendingViewRun = runId;
      if (view) {
        view.show(args?.preserveFocus ?? false);
        return;
      }
      await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
      if (args?.preserveFocus) await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    },
    openPanel,
    refreshSetup: () => team.refresh(),
    dispose() {
      hub.dispose();
      team.dispose();
      applyListener.dispose();
      panel?.dispose();
    },
  };
}
