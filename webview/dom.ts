// Tiny DOM helpers: create elements without innerHTML (model text only ever becomes text nodes or sanitized
// markdown), and update them only when something changed.

type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  title?: string;
  attrs?: Record<string, string | number | boolean | null | undefined>;
  on?: Partial<Record<keyof HTMLElementEventMap, (event: Event) => void>>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props, ...children: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, props?: Props, ...children: Child[]): HTMLElement;
export function h(tag: string, props: Props = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.text !== undefined) el.textContent = props.text;
  if (props.title !== undefined) el.title = props.title;
  for (const [k, v] of Object.entries(props.attrs ?? {})) setAttr(el, k, v);
  for (const [k, fn] of Object.entries(props.on ?? {})) if (fn) el.addEventListener(k, fn);
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

export function setAttr(el: Element, name: string, value: string | number | boolean | null | undefined): void {
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else {
    const s = value === true ? '' : String(value);
    if (el.getAttribute(name) !== s) el.setAttribute(name, s);
  }
}

export function setText(el: Node, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

export function setTitle(el: HTMLElement, title: string): void {
  if (el.title !== title) el.title = title;
}

export function setHidden(el: HTMLElement, hidden: boolean): void {
  if (el.hidden !== hidden) el.hidden = hidden;
}

export function setClass(el: Element, cls: string, on: boolean): void {
  if (el.classList.contains(cls) !== on) el.classList.toggle(cls, on);
}

/** A codicon (`name`, or `name~spin`), hidden from screen readers. */
export function icon(name: string, extra = ''): HTMLSpanElement {
  const span = document.createElement('span');
  setIcon(span, name, extra);
  span.setAttribute('aria-hidden', 'true');
  return span;
}

export function setIcon(span: HTMLElement, name: string, extra = ''): void {
  const [base, modifier] = name.split('~');
  const cls = `codicon codicon-${base}${modifier === 'spin' ? ' codicon-modifier-spin' : ''}${extra ? ` ${extra}` : ''}`;
  if (span.className !== cls) span.className = cls;
}

/** An icon-only button with an accessible name. */
export function iconButton(name: string, label: string, onClick: () => void, extra = ''): HTMLButtonElement {
  return h('button', { class: `icon-btn${extra ? ` ${extra}` : ''}`, title: label, attrs: { type: 'button', 'aria-label': label }, on: { click: () => onClick() } }, icon(name));
}

/** A `<vscode-button>` (from @vscode-elements/elements) with an accessible name. */
export function button(text: string, opts: { icon?: string; secondary?: boolean; label?: string; title?: string; onClick: () => void }): HTMLElement {
  const b = document.createElement('vscode-button');
  b.textContent = text;
  if (opts.icon) b.setAttribute('icon', opts.icon);
  if (opts.secondary) b.setAttribute('secondary', '');
  b.setAttribute('aria-label', opts.label ?? text);
  if (opts.title) b.title = opts.title;
  b.addEventListener('click', () => {
    if (!b.hasAttribute('disabled')) opts.onClick();
  });
  return b;
}

/** A collapsible section (native details/summary: keyboard and screen-reader friendly) with a count badge. */
export function section(cls: string, heading: string, open: boolean, onToggle: (open: boolean) => void, ...children: Child[]): { el: HTMLDetailsElement; body: HTMLElement; badge: HTMLElement } {
  const badge = h('vscode-badge', { class: 'section-badge', attrs: { variant: 'counter' } });
  badge.hidden = true;
  const body = h('div', { class: 'section-body' }, ...children);
  const el = h('details', { class: `section ${cls}` }, h('summary', { class: 'section-head' }, icon('chevron-right', 'section-chevron'), h('span', { class: 'section-title', text: heading }), badge), body) as HTMLDetailsElement;
  el.open = open;
  el.addEventListener('toggle', () => onToggle(el.open));
  return { el, body, badge };
}
