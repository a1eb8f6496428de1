// ESLint rule: text the host hands to VS Code's UI goes through `vscode.l10n.t(...)` (or `l10n.t(...)`), so the
// extension can be translated. It reports a string or template literal with words in it, also as a branch of `?:`,
// `||`/`??` or a `+` operand, where it is passed straight to a UI API: notifications (message, `detail`, buttons),
// input boxes and quick picks (title, prompt, placeholder, items' labels), file dialogs, progress (title, `report`
// message), the status-bar message, the chat response stream (markdown, progress, button title, anchor title),
// MarkdownString, a language-model tool's invocation and confirmation messages, a webview panel's title, and
// assignments to a status-bar item's or input's text, tooltip, title, placeholder, prompt and items. Text kept in a
// variable first is not traced: the rule guards the common paths.

const WORDS = /[A-Za-z]/;

/** A literal the user would read: a string or template with letters (a template's fixed parts count). */
function isBareText(node) {
  if (!node) return false;
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' && WORDS.test(node.value);
    case 'TemplateLiteral':
      return node.quasis.some((q) => WORDS.test(q.value.cooked ?? q.value.raw));
    case 'ConditionalExpression':
      return isBareText(node.consequent) || isBareText(node.alternate);
    case 'LogicalExpression':
      return isBareText(node.left) || isBareText(node.right);
    case 'BinaryExpression':
      return node.operator === '+' && (isBareText(node.left) || isBareText(node.right));
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
      return isBareText(node.expression);
    default:
      return false;
  }
}

const calleeName = (callee) =>
  callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier'
    ? callee.property.name
    : callee.type === 'Identifier'
      ? callee.name
      : undefined;

const propName = (p) => (p.type === 'Property' && !p.computed ? (p.key.type === 'Identifier' ? p.key.name : p.key.type === 'Literal' ? String(p.key.value) : undefined) : undefined);

/** The properties named `names` of an object literal. */
const props = (node, names) => (node?.type === 'ObjectExpression' ? node.properties.filter((p) => names.includes(propName(p))).map((p) => p.value) : []);

/** An array literal's items: strings themselves, objects' label/description/detail (quick pick items). */
const itemTexts = (node) =>
  node?.type === 'ArrayExpression' ? node.elements.flatMap((e) => (e?.type === 'ObjectExpression' ? props(e, ['label', 'description', 'detail']) : [e])) : [];

const MESSAGE = /^show(Information|Warning|Error)Message$/;

/** The arguments of a call that carry user-facing text, by the API's name; undefined when it is no UI API. */
function textArguments(name, args) {
  if (MESSAGE.test(name)) {
    // (message, options?, ...items): items are strings or MessageItems ({ title }).
    return args.flatMap((a, i) => (a.type === 'ObjectExpression' ? props(a, i === 0 ? [] : ['detail', 'title']) : [a]));
  }
  switch (name) {
    case 'showInputBox':
      return props(args[0], ['title', 'prompt', 'placeHolder']);
    case 'showQuickPick':
      return [...itemTexts(args[0]), ...props(args[1], ['title', 'placeHolder'])];
    case 'showOpenDialog':
    case 'showSaveDialog':
      return props(args[0], ['title', 'openLabel', 'saveLabel']);
    case 'setStatusBarMessage':
      return args.slice(0, 1);
    case 'withProgress':
      return props(args[0], ['title']);
    case 'report':
      return props(args[0], ['message']);
    case 'markdown':
    case 'progress':
      return args.slice(0, 1);
    case 'button':
      return props(args[0], ['title']);
    case 'createWebviewPanel':
    case 'anchor':
      return args.slice(1, 2);
    default:
      return undefined;
  }
}

/** Assignments `x.text = …` and the like: status-bar items, quick picks and input boxes built by hand. */
const ASSIGNED = new Set(['text', 'tooltip', 'title', 'placeholder', 'prompt']);

/** @type {import('eslint').Rule.RuleModule} */
export const noBareUiString = {
  meta: {
    type: 'problem',
    docs: { description: 'User-facing text passed to VS Code UI APIs goes through vscode.l10n.t' },
    schema: [],
    messages: { bare: 'User-facing text for {{api}}: wrap it in vscode.l10n.t(\'… {0} …\', arg) so it can be translated.' },
  },
  create(context) {
    const report = (node, api) => context.report({ node, messageId: 'bare', data: { api } });
    return {
      CallExpression(node) {
        const name = calleeName(node.callee);
        const texts = name && textArguments(name, node.arguments);
        for (const t of texts ?? []) if (isBareText(t)) report(t, name);
      },
      NewExpression(node) {
        if (calleeName(node.callee) === 'MarkdownString' && isBareText(node.arguments[0])) report(node.arguments[0], 'MarkdownString');
      },
      // A language-model tool's prepareInvocation result.
      Property(node) {
        const name = propName(node);
        if (name === 'invocationMessage' && isBareText(node.value)) report(node.value, name);
        if (name === 'confirmationMessages') for (const t of props(node.value, ['title', 'message'])) if (isBareText(t)) report(t, name);
      },
      AssignmentExpression(node) {
        const target = node.left;
        if (node.operator !== '=' || target.type !== 'MemberExpression' || target.computed || target.property.type !== 'Identifier') return;
        const name = target.property.name;
        const texts = ASSIGNED.has(name) ? [node.right] : name === 'items' ? itemTexts(node.right) : [];
        for (const t of texts) if (isBareText(t)) report(t, `.${name}`);
      },
    };
  },
};

export default { rules: { 'no-bare-ui-string': noBareUiString } };
