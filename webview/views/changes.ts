// The change an answer version carries in a workspace run: "3 files changed, +12 −4", which expands to one row per
// file (status, path, lines added and removed, or "binary"); a file expands to its diff. The version's patch is
// asked of the host the first time one of its files is opened, once for all of them. File names are model output:
// text only, invisible characters written out.

import type { AnswerChange, ChangedFile } from '../../src/protocol/state';
import { fileDiffOf } from '../diff-parse';
import type { DiffStore, PatchState } from '../diff-store';
import { h, icon, setAttr, setHidden, setIcon, setText } from '../dom';
import { changeStat, FILE_STATUS, fileStat, visible } from '../format';
import { FileDiffView } from './file-diff';

let nextId = 0;

/** A button that shows and hides `target` (aria-expanded, aria-controls), with a chevron. */
function disclosure(cls: string, label: string, target: HTMLElement, onToggle: (open: boolean) => void, ...content: (Node | string)[]): HTMLButtonElement {
  target.id ||= `mg-disclosure-${++nextId}`;
  setHidden(target, true);
  const chevron = icon('chevron-right', 'disclosure-chevron');
  const button = h('button', { class: `disclosure ${cls}`, attrs: { type: 'button', 'aria-expanded': 'false', 'aria-controls': target.id, 'aria-label': label } }, chevron, ...content);
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    setAttr(button, 'aria-expanded', String(open));
    setIcon(chevron, open ? 'chevron-down' : 'chevron-right', 'disclosure-chevron');
    setHidden(target, !open);
    onToggle(open);
  });
  return button;
}

const STATUS_WORD = { added: 'added', modified: 'modified', deleted: 'deleted' } as const;
const BINARY_NOTE = 'Binary file: its content is not shown.';

class FileRow {
  readonly el: HTMLLIElement;
  private readonly body = h('div', { class: 'file-body' });
  private open = false;
  private shown: PatchState | null = null;

  constructor(readonly file: ChangedFile, private readonly onOpen: () => void) {
    const path = visible(file.path);
    const slash = path.lastIndexOf('/');
    const stat = fileStat(file);
    const toggle = disclosure(
      'file-toggle',
      `${STATUS_WORD[file.status]} ${path}, ${stat}`,
      this.body,
      (open) => {
        this.open = open;
        if (open && !this.binary) this.onOpen();
      },
      h('span', { class: `file-status status-${file.status}`, text: FILE_STATUS[file.status], attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'file-path', title: path }, h('span', { class: 'file-name', text: path.slice(slash + 1) }), slash >= 0 ? h('span', { class: 'file-dir', text: path.slice(0, slash + 1) }) : ''),
      h('span', { class: `file-stat${stat === 'binary' ? ' binary' : ''}`, text: stat }),
    );
    this.el = h('li', { class: 'change-file' }, toggle, this.body);
    // Nothing to ask the host for: the engine lists a binary file without line counts.
    if (this.binary) this.body.replaceChildren(h('p', { class: 'file-note', text: BINARY_NOTE }));
  }

  private get binary(): boolean {
    return this.file.added === null || this.file.removed === null;
  }

  /** Shows the file's part of the version's patch (when open; once per state). */
  show(state: PatchState): void {
    if (!this.open || this.binary || this.shown === state) return;
    this.shown = state;
    const note = (text: string) => h('p', { class: 'file-note', text });
    if (state.kind === 'loading') this.body.replaceChildren(note('Loading the diff…'));
    else if (state.kind === 'missing') this.body.replaceChildren(note(state.note));
    else {
      const diff = fileDiffOf(state.patch, this.file.path);
      if (diff?.binary) this.body.replaceChildren(note(BINARY_NOTE));
      else if (!diff) this.body.replaceChildren(note(state.truncated ? 'Not in the part of the patch that was sent.' : 'This file is not in the patch.'));
      else if (diff.rows.length === 0) this.body.replaceChildren(note('No line changes (an empty file, or only its mode changed).'));
      else this.body.replaceChildren(new FileDiffView(diff, visible(this.file.path)).el);
    }
  }
}

export class ChangesView {
  readonly el: HTMLElement;
  private readonly list = h('ul', { class: 'change-files' });
  private readonly note = h('p', { class: 'changes-note', attrs: { role: 'note' } });
  private rows: FileRow[] = [];
  private patch: PatchState | null = null;
  private unwatch: (() => void) | null = null;

  constructor(private readonly diffs: DiffStore, private readonly version: string, private readonly change: AnswerChange) {
    const stat = changeStat(change);
    setHidden(this.note, true);
    if (change.files.length === 0) {
      this.el = h('div', { class: 'changes' }, h('span', { class: 'changes-none' }, icon('diff'), h('span', { text: stat })));
      return;
    }
    setAttr(this.list, 'aria-label', `Files changed in ${version}`);
    const toggle = disclosure('changes-toggle', `${stat} in ${version}`, this.list, (open) => open && this.buildRows(), icon('diff'), h('span', { class: 'changes-stat', text: stat }));
    this.el = h('div', { class: 'changes' }, toggle, this.note, this.list);
  }

  /** File rows are built the first time the list opens (a version may change hundreds of files). */
  private buildRows(): void {
    if (this.rows.length) return;
    this.rows = this.change.files.map((f) => new FileRow(f, () => this.fileOpened()));
    this.list.replaceChildren(...this.rows.map((r) => r.el));
  }

  private fileOpened(): void {
    this.unwatch ??= this.diffs.watch(this.version, (state) => this.patchChanged(state));
    if (this.patch) this.patchChanged(this.patch);
  }

  private patchChanged(state: PatchState): void {
    this.patch = state;
    const note = state.kind === 'ready' ? state.note : null;
    setText(this.note, note ?? '');
    setHidden(this.note, !note);
    for (const r of this.rows) r.show(state);
  }

  dispose(): void {
    this.unwatch?.();
  }
}
