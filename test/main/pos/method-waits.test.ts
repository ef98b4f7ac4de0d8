/**
 * How long a POS waits for each method's answer is declared once, with the method
 * (main/pos/protocol's `waits`), and the client package reads it from its generated protocol
 * (client/protocol.ts, METHOD_WAITS) instead of keeping a list of its own (issue 36).
 */
import { describe, expect, it } from 'vitest';
import { METHOD_WAITS } from '../../../client/protocol.js';
import { METHODS } from '../../../main/pos/protocol/index.js';

const declared = Object.entries(METHODS).map(([name, spec]) => {
  const params = (spec.params as { properties?: Record<string, unknown> }).properties ?? {};
  // Someone at the PINPAD has time of their own: the customer (timeout_s), or the supervisor
  // typing a PIN on its keypad (supervisor_entry "pinpad", 60 s).
  return { name, waits: spec.waits ?? 'request', customerTime: 'timeout_s' in params || 'supervisor_entry' in params };
});

describe("a method's wait", () => {
  it("is the PINPAD user's time for every method that gives the customer a timeout_s or lets the supervisor type on the PINPAD, and only for those", () => {
    expect(declared.filter((method) => method.customerTime).map((method) => [method.name, method.waits])).toEqual(
      declared.filter((method) => method.customerTime).map((method) => [method.name, 'customer']),
    );
    expect(declared.filter((method) => method.waits === 'customer' && !method.customerTime)).toEqual([]);
  });

  it('is the outcome for payment.start alone: a sale answers when it ends, however long the customer takes', () => {
    expect(declared.filter((method) => method.waits === 'outcome').map((method) => method.name)).toEqual([
      'payment.start',
    ]);
  });

  it('reaches the client package through its generated protocol, as declared', () => {
    expect(METHOD_WAITS).toEqual(
      Object.fromEntries(
        declared.filter((method) => method.waits !== 'request').map((method) => [method.name, method.waits]),
      ),
    );
  });
});
