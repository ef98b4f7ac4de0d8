/**
 * The banner on top of Configurações when the agent started on the defaults because the settings
 * file had mistakes (operator.settings `problem`): each mistake with the name of the control it
 * belongs to, and, once this window saved the file, that a restart will use it.
 */
import type { ResultOf } from '../../client/index.js';
import { byId, fill, h } from '../dom.js';
import { targetOf } from './fields.js';
import { labelOf, problemText } from './violations.js';

type Problem = ResultOf<'operator.settings'>['problem'];

export class ProblemBanner {
  readonly #box = byId('settings-problem');
  readonly #list = byId('settings-problem-list');
  readonly #saved = byId('settings-problem-saved');
  #problem: Problem = null;

  /** The file's mistakes the agent started despite, as operator.settings said (null: none). */
  set problem(problem: Problem) {
    this.#problem = problem;
  }

  /** `savedSinceStart`: the file was saved from this window since, so the mistakes are no longer in it. */
  render(savedSinceStart: boolean): void {
    const problem = this.#problem;
    this.#box.hidden = problem === null;
    fill(
      this.#list,
      ...(problem?.violations ?? []).map((violation) => {
        const target = targetOf(violation.field);
        const label = target === null ? null : labelOf(target);
        return h(
          'li',
          { attrs: { 'data-field': violation.field } },
          h('code', {}, violation.field),
          label === null ? null : ` (${label})`,
          ': ',
          ...problemText(violation),
        );
      }),
    );
    this.#saved.hidden = !savedSinceStart;
  }
}
