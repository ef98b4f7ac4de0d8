/**
 * The operator key of the window: it arrives once in the address's fragment (`#key=…`, which a
 * browser never sends to a server), is kept in sessionStorage for reloads of this tab only, and
 * is removed from the address bar at once so it is not left on screen, in the history or in a
 * bookmark. `#key=…&page=clients` opens a page other than the status (the agent's `pairing`
 * address opens the POS clients, where pairing codes appear).
 */

const KEY_STORAGE = 'pinbridge-window:key';
const KEY_IN_FRAGMENT = /^#key=([^&]+)(?:&page=([a-z]+))?/;

/** The key from `#key=…` (then stored and erased from the address) or from this tab's storage. */
export function takeOperatorKey(): string | null {
  const match = KEY_IN_FRAGMENT.exec(location.hash);
  if (match !== null) {
    let key: string;
    try {
      key = decodeURIComponent(match[1] ?? '');
    } catch {
      key = match[1] ?? '';
    }
    try {
      sessionStorage.setItem(KEY_STORAGE, key);
    } catch {
      // Storage disabled: the key still works until this page is reloaded.
    }
    history.replaceState(null, '', `${location.pathname}${location.search}#/${match[2] ?? 'status'}`);
    return key === '' ? null : key;
  }
  try {
    return sessionStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

/** The agent refused the key: forget it, so a reload shows the "open the right address" message. */
export function forgetOperatorKey(): void {
  try {
    sessionStorage.removeItem(KEY_STORAGE);
  } catch {
    // Nothing was kept.
  }
}
