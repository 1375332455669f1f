/**
 * A small element builder. Text always goes in through text nodes, never as HTML, so whatever a
 * server or a player sends is shown as it is and cannot inject markup.
 */
export type Child = Node | string | number | null | undefined | false;

export type Attributes = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') node.addEventListener(key.replace(/^on/, ''), value);
    else if (value === true) node.setAttribute(key, '');
    else node.setAttribute(key, String(value));
  }
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** Copies text to the clipboard, falling back to selecting it where the clipboard API is missing (plain http). */
export async function copyText(text: string, fallback: HTMLElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const range = document.createRange();
    range.selectNodeContents(fallback);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    return false;
  }
}

/** A small padlock icon (emoji fonts are not everywhere). */
export function lockIcon(title: string): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('class', 'lock');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', title);
  const body = document.createElementNS(ns, 'rect');
  for (const [k, v] of Object.entries({ x: '3', y: '7', width: '10', height: '8', rx: '1.5', fill: 'currentColor' })) body.setAttribute(k, v);
  const shackle = document.createElementNS(ns, 'path');
  for (const [k, v] of Object.entries({ d: 'M5 7V5a3 3 0 0 1 6 0v2', fill: 'none', stroke: 'currentColor', 'stroke-width': '1.6' })) shackle.setAttribute(k, v);
  const label = document.createElementNS(ns, 'title');
  label.textContent = title;
  svg.append(label, body, shackle);
  return svg;
}
