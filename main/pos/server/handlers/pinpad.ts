/** The PINPADs outside a payment: list, status, a message, a key, data the customer types. */
import { PosError, type PinpadView } from '../../protocol/index.js';
import type { Handlers } from '../dispatch.js';

/** The PINPAD shows two lines of 16: "\n" splits them, or the text wraps after 16. */
function displayViolation(text: string): string | undefined {
  const lines = text.split('\n');
  if (lines.length > 2) return 'At most two lines (one "\\n")';
  if (lines.length === 2)
    return lines.some((line) => line.length > 16) ? 'Each line holds at most 16 characters' : undefined;
  return text.length > 32 ? 'At most 32 characters' : undefined;
}

function checkDisplayText(field: string, text: string): void {
  const problem = displayViolation(text);
  if (problem !== undefined)
    throw new PosError('INVALID_PARAMS', `${field}: ${problem}`, { violations: [{ field, message: problem }] });
}

export const pinpadHandlers: Handlers<
  'pinpad.list' | 'pinpad.status' | 'pinpad.display' | 'pinpad.readCustomerData' | 'pinpad.readKey' | 'pinpad.abort'
> = {
  // The reference of the sale a PINPAD runs is shown to that sale's owner (and the window) only.
  'pinpad.list': (_params, { agent, hub, session }) => ({
    pinpads: agent.pinpads.list().map((entry) => hub.pinpadViewFor(session, entry)),
  }),

  'pinpad.status': ({ terminal }, { agent, hub, session }): PinpadView =>
    hub.pinpadViewFor(session, agent.pinpads.get(terminal)),

  'pinpad.display': async ({ terminal, text }, { agent }) => {
    checkDisplayText('text', text);
    await agent.pinpads.display(terminal, text);
    return {};
  },

  // A prompt stops when the session that asked for it closes: no one is left to read the answer.
  'pinpad.readCustomerData': async ({ terminal, kind, timeout_s }, { agent, session }) => {
    const value = await agent.pinpads.readCustomerData(terminal, kind, {
      signal: session.ended,
      ...(timeout_s === undefined ? {} : { timeoutSeconds: timeout_s }),
    });
    return { kind, value };
  },

  'pinpad.readKey': async ({ terminal, prompt, timeout_s }, { agent, session }) => {
    if (prompt !== undefined) checkDisplayText('prompt', prompt);
    const key = await agent.pinpads.readKey(terminal, {
      signal: session.ended,
      ...(prompt === undefined ? {} : { prompt }),
      ...(timeout_s === undefined ? {} : { timeoutSeconds: timeout_s }),
    });
    return { key };
  },

  'pinpad.abort': ({ terminal }, { agent }) => ({ aborted: agent.pinpads.abort(terminal) }),
};
