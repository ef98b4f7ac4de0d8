/**
 * A tiny typed event emitter: the browser has no `node:events`, and the client needs only
 * on / off / emit. A listener that throws does not stop the others; its error is rethrown on a
 * fresh task, where the runtime reports it as uncaught (as EventTarget does).
 */
export type Listener<P> = (payload: P) => void;

export class Emitter<Events extends object> {
  readonly #listeners = new Map<keyof Events, Set<Listener<never>>>();

  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): void {
    let listeners = this.#listeners.get(event);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(event, listeners);
    }
    listeners.add(listener);
  }

  off<K extends keyof Events>(event: K, listener: Listener<Events[K]>): void {
    this.#listeners.get(event)?.delete(listener);
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const listeners = this.#listeners.get(event);
    if (listeners === undefined) return;
    // A copy: a listener may remove itself (or others) while we go through them.
    for (const listener of [...listeners] as Listener<Events[K]>[]) {
      try {
        listener(payload);
      } catch (error) {
        setTimeout(() => {
          throw error;
        }, 0);
      }
    }
  }
}
