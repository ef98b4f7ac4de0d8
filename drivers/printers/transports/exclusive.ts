/**
 * Runs async tasks one at a time, in call order. A printer line carries one conversation: a status
 * request must not slip between the bytes of a job, and a job must not start while a request waits
 * for its answer.
 */
export class Exclusive {
  #tail: Promise<unknown> = Promise.resolve();
  #running = 0;

  /** True while a task runs or waits its turn (pollers skip a round instead of queueing behind a job). */
  get busy(): boolean {
    return this.#running > 0;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    this.#running += 1;
    const result = this.#tail.then(task).finally(() => {
      this.#running -= 1;
    });
    // The next task waits for this one whatever its outcome.
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
