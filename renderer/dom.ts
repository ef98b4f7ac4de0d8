/**
 * The few DOM helpers the window's pages share: find an element the page must have, build
 * elements with their text and attributes (text always as text, never as HTML), and re-render a
 * part of the page without losing the keyboard focus of the cashier.
 */

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`The window has no #${id}`);
  return element as T;
}

export type Child = Node | string | null | undefined | false;

export interface Props {
  readonly className?: string;
  readonly id?: string;
  /** Attributes (aria-*, data-*, lang…); null leaves one out. */
  readonly attrs?: Readonly<Record<string, string | null>>;
  readonly hidden?: boolean;
}

/** An element with its attributes and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.className !== undefined) element.className = props.className;
  if (props.id !== undefined) element.id = props.id;
  if (props.hidden === true) element.hidden = true;
  for (const [name, value] of Object.entries(props.attrs ?? {})) if (value !== null) element.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

/** Replaces the children of `container` (null, undefined and false are left out). */
export function fill(container: HTMLElement, ...children: Child[]): void {
  container.replaceChildren(
    ...children.filter((child): child is Node | string => child !== null && child !== undefined && child !== false),
  );
}

export type ButtonVariant = 'primary' | 'secondary' | 'danger';

export interface ButtonOptions {
  readonly variant?: ButtonVariant;
  readonly onClick: () => void;
  /** What a screen reader says when the visible label is not enough ("Recusar Caixa 3"). */
  readonly label?: string;
  /** Keeps the focus on the "same" button across re-renders (see `keepFocus`). */
  readonly focusKey?: string;
  readonly disabled?: boolean;
}

export function button(text: string, options: ButtonOptions): HTMLButtonElement {
  const element = h(
    'button',
    {
      className: options.variant ?? 'secondary',
      attrs: { type: 'button', 'aria-label': options.label ?? null, 'data-focus-key': options.focusKey ?? null },
    },
    text,
  );
  element.disabled = options.disabled === true;
  element.addEventListener('click', options.onClick);
  return element;
}

/**
 * Runs `render` (which replaces children of `container`) and gives the focus back to the element
 * with the same `data-focus-key`, so a list that refreshes while the cashier tabs through it does
 * not throw the focus back to the top of the page.
 */
export function keepFocus(container: HTMLElement, render: () => void): void {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && container.contains(active) ? active.dataset.focusKey : undefined;
  render();
  if (key === undefined) return;
  const again = [...container.querySelectorAll<HTMLElement>('[data-focus-key]')].find(
    (element) => element.dataset.focusKey === key,
  );
  again?.focus();
}
