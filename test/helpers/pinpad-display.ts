/** Waiting on what a simulated PINPAD shows, for specs that act as its customer. */
import type { PinpadSimulator } from '../../drivers/simulator/index.js';

/** Resolves when the display matches `pattern` (its lines joined by "\n"), now or later. */
export function displayed(sim: PinpadSimulator, pattern: RegExp): Promise<void> {
  if (pattern.test(sim.display.lines.join('\n'))) return Promise.resolve();
  return new Promise((resolve) => {
    const check = ({ lines }: { lines: readonly string[] }): void => {
      if (!pattern.test(lines.join('\n'))) return;
      sim.off('display', check);
      resolve();
    };
    sim.on('display', check);
  });
}
