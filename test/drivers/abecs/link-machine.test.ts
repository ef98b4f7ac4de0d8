/**
 * The host side of the ABECS link layer (abecs.md §1.6, §1.7) as sequences of events and the
 * actions they call for: no transport, no real time. Timings are the spec's own (2 s, 500 ms, 10 s).
 */
import { describe, expect, it } from 'vitest';
import { ACK, CAN, DC2, EOT, FrameError, NAK, encodeFrame, type DecodedItem } from '../../../drivers/abecs/frame.js';
import {
  DEFAULT_LINK_TIMINGS,
  initialLinkState,
  isBusy,
  step,
  type LinkAction,
  type LinkErrorCode,
  type LinkInput,
  type LinkState,
  type LinkTimer,
  type LinkTimings,
  type LinkWriteKind,
} from '../../../drivers/abecs/link-machine.js';

const ascii = (text: string): Buffer => Buffer.from(text, 'latin1');

// What the frame decoder hands the machine.
const ack: DecodedItem = { kind: 'byte', byte: ACK };
const nak: DecodedItem = { kind: 'byte', byte: NAK };
const eot: DecodedItem = { kind: 'byte', byte: EOT };
const noise: DecodedItem = { kind: 'byte', byte: 0x41 };
const corrupted: DecodedItem = { kind: 'error', reason: 'crc' };
const packet = (pktdata: string | Buffer): DecodedItem => ({
  kind: 'packet',
  data: typeof pktdata === 'string' ? ascii(pktdata) : pktdata,
});
/** An NTM packet (abecs.md §1.7): `NTM` + `000` + N3 length + two 16-column lines. */
const ntm = (text: string): DecodedItem => packet(`NTM000${String(text.length).padStart(3, '0')}${text}`);

// What the machine asks for.
/** Any message, where the code alone is the point. */
const someMessage = expect.any(String) as string;
const write = (op: number, carries: LinkWriteKind, bytes: Buffer): LinkAction => ({
  type: 'write',
  op,
  carries,
  bytes,
});
const start = (timer: LinkTimer, ms: number): LinkAction => ({ type: 'startTimer', timer, ms });
const stop = (timer: LinkTimer): LinkAction => ({ type: 'stopTimer', timer });
const resetDecoder: LinkAction = { type: 'resetDecoder' };
const resolves = (op: number, response: string | Buffer): LinkAction => ({
  type: 'resolveCommand',
  op,
  response: typeof response === 'string' ? ascii(response) : response,
});
const rejects = (op: number, code: LinkErrorCode, message?: string): LinkAction => ({
  type: 'rejectCommand',
  op,
  failure: { code, message: message ?? someMessage },
});
const cancelRejects = (op: number, code: LinkErrorCode): LinkAction => ({
  type: 'rejectCancel',
  op,
  failure: { code, message: someMessage },
});
const refused = (code: LinkErrorCode, message?: string): LinkAction[] => [
  { type: 'refuse', failure: { code, message: message ?? someMessage } },
];

/** What the host does: the actions without its traces and logs. */
const effects = (actions: readonly LinkAction[]): LinkAction[] =>
  actions.filter((action) => action.type !== 'trace' && action.type !== 'log');

/** Freezes a state to the last field (frames excepted: typed arrays cannot be frozen), so a step that changed it would throw. */
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || Object.isFrozen(value)) return value;
  for (const field of Object.values(value)) deepFreeze(field);
  return Object.freeze(value);
}

/** The machine driven by hand. Every state it holds is frozen: each spec also proves `step` pure. */
class Link {
  state: LinkState;

  constructor(timings: Partial<LinkTimings> = {}) {
    this.state = deepFreeze(initialLinkState({ ...DEFAULT_LINK_TIMINGS, ...timings }));
  }

  get busy(): boolean {
    return isBusy(this.state);
  }

  get timers(): readonly LinkTimer[] {
    return this.state.timers;
  }

  /** All the actions of one input, traces and logs included. */
  feed(input: LinkInput): LinkAction[] {
    const next = step(this.state, input);
    this.state = deepFreeze(next.state);
    return [...next.actions];
  }

  send(pktdata: string | Buffer, options: Partial<Extract<LinkInput, { type: 'send' }>> = {}): LinkAction[] {
    const bytes = typeof pktdata === 'string' ? ascii(pktdata) : pktdata;
    return effects(this.feed({ type: 'send', op: 1, pktdata: bytes, lineUp: true, ...options }));
  }

  /** The command was sent and the transport took it: the ACK wait runs. */
  sent(pktdata: string, options: Partial<Extract<LinkInput, { type: 'send' }>> = {}): void {
    this.send(pktdata, options);
    this.written(options.op ?? 1, 'command');
  }

  /** The command was sent and ACKed: the host waits for the response. */
  acked(pktdata: string, options: Partial<Extract<LinkInput, { type: 'send' }>> = {}): void {
    this.sent(pktdata, options);
    this.receive(ack);
  }

  receive(...items: DecodedItem[]): LinkAction[] {
    return effects(this.feed({ type: 'bytes', items, receiving: false }));
  }

  /** A chunk that ends inside a packet. */
  receivePartial(...items: DecodedItem[]): LinkAction[] {
    return effects(this.feed({ type: 'bytes', items, receiving: true }));
  }

  written(op: number, carries: LinkWriteKind): LinkAction[] {
    return effects(this.feed({ type: 'written', op, carries }));
  }

  expire(timer: LinkTimer): LinkAction[] {
    return effects(this.feed({ type: 'timeout', timer }));
  }

  cancel(op = 2): LinkAction[] {
    return effects(this.feed({ type: 'cancel', op, lineUp: true }));
  }

  reset(op = 2): LinkAction[] {
    return effects(this.feed({ type: 'reset', op, lineUp: true }));
  }
}

const GIX = ascii('GIX000');
const GIX_FRAME = encodeFrame(GIX);
const CAN_BYTE = Buffer.of(CAN);
const NAK_BYTE = Buffer.of(NAK);

describe('sending a command (S220 §2.2.2.1)', () => {
  it('sends the framed packet and starts the 2 s ACK wait once the transport has taken it', () => {
    const link = new Link();
    expect(link.send('GIX000')).toEqual([write(1, 'command', GIX_FRAME)]);
    expect(link.busy).toBe(true);
    expect(link.timers).toEqual([]);
    expect(link.written(1, 'command')).toEqual([start('ack', 2000)]);
  });

  it('an ACK starts the 10 s limit of a non-blocking command; the response resolves it and the host sends nothing back', () => {
    const link = new Link();
    link.sent('GIX000');
    expect(link.receive(ack)).toEqual([stop('ack'), start('response', 10_000)]);
    // The SPE never ACKs a response (abecs.md §1.2).
    expect(link.receive(packet('GIX000'))).toEqual([stop('response'), resolves(1, 'GIX000')]);
    expect(link.busy).toBe(false);
    expect(link.timers).toEqual([]);
  });

  it('a blocking command waits for its response without a limit', () => {
    const link = new Link();
    link.sent('GCD000', { blocking: true });
    expect(link.receive(ack)).toEqual([stop('ack')]);
    expect(link.timers).toEqual([]);
  });

  it('a NAK makes the host send the same frame again, and the third NAK fails the command with NAK_LIMIT', () => {
    const link = new Link();
    link.sent('GIX000');
    expect(link.receive(nak)).toEqual([stop('ack'), write(1, 'command', GIX_FRAME)]);
    link.written(1, 'command');
    expect(link.receive(nak)).toEqual([stop('ack'), write(1, 'command', GIX_FRAME)]);
    link.written(1, 'command');
    expect(link.receive(nak)).toEqual([
      stop('ack'),
      rejects(
        1,
        'NAK_LIMIT',
        'The PINPAD received the identification command (GIX) garbled 3 times in a row: check the cable (a damaged or too long one garbles bytes).',
      ),
    ]);
    expect(link.busy).toBe(false);
  });

  it('no answer within 2 s fails the command with ACK_TIMEOUT', () => {
    const link = new Link();
    link.sent('GIX000');
    expect(link.expire('ack')).toEqual([
      rejects(
        1,
        'ACK_TIMEOUT',
        'The PINPAD did not answer the identification command (GIX) within 2 s: check the cable and that nothing else uses the port.',
      ),
    ]);
  });

  it('no response within 10 s of the ACK fails a non-blocking command with RESPONSE_TIMEOUT', () => {
    const link = new Link();
    link.acked('GIX000');
    expect(link.expire('response')).toEqual([
      rejects(
        1,
        'RESPONSE_TIMEOUT',
        'The PINPAD received the identification command (GIX) but sent no result within 10 s: switch it off and on if this keeps happening.',
      ),
    ]);
  });

  it('a packet before the ACK is stale and ignored', () => {
    const link = new Link();
    link.sent('GIX000');
    expect(link.receive(packet('OPN000'), corrupted)).toEqual([]);
    expect(link.receive(ack)).toEqual([stop('ack'), start('response', 10_000)]);
  });

  it('a send the transport confirms after its ACK arrived starts no ACK wait', () => {
    const link = new Link();
    link.send('GIX000');
    link.receive(ack);
    expect(link.written(1, 'command')).toEqual([]);
    expect(link.timers).toEqual(['response']);
  });

  it('traces the packet out, the ACK and the response in, by their 3-letter ids', () => {
    const link = new Link();
    const traces = [
      ...link.feed({ type: 'send', op: 1, pktdata: ascii('DSP000'), lineUp: true }),
      ...link.feed({ type: 'bytes', items: [ack, packet('DSP000')], receiving: false }),
    ].filter((action) => action.type === 'trace');
    expect(traces.map((action) => action.trace)).toEqual([
      { direction: 'out', kind: 'packet', command: 'DSP', length: 6 },
      { direction: 'in', kind: 'ack', command: 'DSP' },
      { direction: 'in', kind: 'packet', command: 'DSP', length: 6 },
    ]);
  });
});

describe('receiving the response (S220 §2.2.2.2, §2.2.3)', () => {
  it('after a bad packet the host waits for 500 ms of silence, then sends NAK, and takes the intact retransmission', () => {
    const link = new Link();
    link.acked('GIX000');
    expect(link.receive(corrupted)).toEqual([resetDecoder, start('purgeLimit', 5000), start('silence', 500)]);
    // Every byte in the meantime is discarded and restarts the wait.
    expect(link.receive(noise, packet('GIX000'))).toEqual([resetDecoder, start('silence', 500)]);
    expect(link.expire('silence')).toEqual([stop('purgeLimit'), write(1, 'nak', NAK_BYTE)]);
    expect(link.receive(packet('GIX000'))).toEqual([stop('response'), resolves(1, 'GIX000')]);
  });

  it('the 10 s limit keeps running through the purge', () => {
    const link = new Link();
    link.acked('GIX000');
    link.receive(corrupted);
    expect(link.expire('response')).toEqual([stop('silence'), stop('purgeLimit'), rejects(1, 'RESPONSE_TIMEOUT')]);
  });

  it('the third bad packet fails the command with BAD_RESPONSE, after two NAKs', () => {
    const link = new Link();
    link.acked('GIX000');
    const naks: LinkAction[] = [];
    for (let i = 0; i < 2; i++) {
      link.receive(corrupted);
      naks.push(...link.expire('silence').filter((action) => action.type === 'write'));
    }
    expect(naks).toEqual([write(1, 'nak', NAK_BYTE), write(1, 'nak', NAK_BYTE)]);
    expect(link.receive(corrupted)).toEqual([
      resetDecoder,
      stop('response'),
      rejects(1, 'BAD_RESPONSE', 'The response to GIX arrived corrupted 3 times in a row.'),
    ]);
  });

  it('a packet cut short is bad: after 2 s without its next byte the host purges and NAKs', () => {
    const link = new Link();
    link.acked('GIX000');
    expect(link.receivePartial()).toEqual([start('interByte', 2000)]);
    expect(link.expire('interByte')).toEqual([resetDecoder, start('purgeLimit', 5000), start('silence', 500)]);
    expect(link.expire('silence')).toEqual([stop('purgeLimit'), write(1, 'nak', NAK_BYTE)]);
  });

  it('each byte of a packet restarts the inter-byte wait, and the end of the packet stops it', () => {
    const link = new Link();
    link.acked('GIX000');
    expect(link.receivePartial()).toEqual([start('interByte', 2000)]);
    expect(link.receivePartial()).toEqual([start('interByte', 2000)]);
    expect(link.receive(packet('GIX000'))).toEqual([stop('response'), stop('interByte'), resolves(1, 'GIX000')]);
  });

  it('discards the rest of a chunk after a bad packet', () => {
    const link = new Link();
    link.acked('GIX000');
    expect(link.receivePartial(corrupted, packet('GIX000'))).toEqual([
      resetDecoder,
      start('purgeLimit', 5000),
      start('silence', 500),
    ]);
    expect(link.busy).toBe(true);
  });

  it('a line that never falls silent after a bad packet fails the command with LINE_NOISE', () => {
    const link = new Link();
    link.acked('GCX000', { blocking: true });
    link.receive(corrupted);
    expect(link.expire('purgeLimit')).toEqual([]); // the silence may still come
    expect(link.receive(noise)).toEqual([resetDecoder, stop('silence'), rejects(1, 'LINE_NOISE')]);
  });

  it('a purge that ends in silence before its 5 s limit is no noise', () => {
    const link = new Link();
    link.acked('GIX000');
    link.receive(corrupted);
    link.receive(noise);
    link.expire('silence');
    expect(link.timers).toEqual(['response']);
  });

  it('tolerates a few stray bytes; past maxNoiseBytes the line is LINE_NOISE', () => {
    const link = new Link({ maxNoiseBytes: 3 });
    link.sent('GCX000', { blocking: true });
    expect(link.receive(noise, ack, noise, noise)).toEqual([stop('ack')]);
    expect(link.receive(noise)).toEqual([
      rejects(
        1,
        'LINE_NOISE',
        "The PINPAD's line carried 4 bytes that are not the protocol while waiting for GCX: a faulty device or cable.",
      ),
    ]);
  });

  it('an NTM packet is a notification, not the response: the host keeps waiting (abecs.md §1.7)', () => {
    const link = new Link();
    link.sent('GOX000', { blocking: true });
    expect(link.receive(ack, ntm('SELECIONADO:    CREDITO         '), ntm('SOLICITE A SENHA'))).toEqual([
      stop('ack'),
      { type: 'notify', op: 1, notification: { text: 'SELECIONADO:    CREDITO         ' } },
      { type: 'notify', op: 1, notification: { text: 'SOLICITE A SENHA' } },
    ]);
    expect(link.receive(packet('GOX000'))).toEqual([resolves(1, 'GOX000')]);
  });

  it('discards a response to another command; ERR answers any command', () => {
    const link = new Link();
    link.acked('GIX000');
    expect(link.receive(packet('GCD000'))).toEqual([]);
    expect(link.receive(packet('ERR010'))).toEqual([stop('response'), resolves(1, 'ERR010')]);
  });

  it('takes any response to an encrypted command, whose id it cannot read', () => {
    const link = new Link();
    const encrypted = Buffer.of(DC2, 0x01, 0x02, 0x03);
    link.send(encrypted);
    link.written(1, 'command');
    link.receive(ack);
    expect(link.receive(packet(Buffer.of(DC2, 0x09)))).toEqual([stop('response'), resolves(1, Buffer.of(DC2, 0x09))]);
  });

  it('takes ACK, notification and response arriving in one chunk', () => {
    const link = new Link();
    link.sent('CLO000');
    expect(link.receive(ack, ntm('OPERACAO        FINALIZADA      '), packet('CLO000'))).toEqual([
      stop('ack'),
      start('response', 10_000),
      { type: 'notify', op: 1, notification: { text: 'OPERACAO        FINALIZADA      ' } },
      stop('response'),
      resolves(1, 'CLO000'),
    ]);
  });

  it('drops a packet that arrives while nothing is in flight (the PINPAD never speaks first)', () => {
    const link = new Link();
    const actions = link.feed({ type: 'bytes', items: [packet('GCD000')], receiving: false });
    expect(effects(actions)).toEqual([]);
    expect(actions).toContainEqual(
      expect.objectContaining({ type: 'log', message: 'discarding an unsolicited packet' }),
    );
  });
});

describe('cancelling (S220 §2.2.2.3)', () => {
  it('sends CAN, waits 2 s for EOT, and once the line is quiet after it the command rejects CANCELLED', () => {
    const link = new Link();
    link.acked('GCD000', { blocking: true });
    expect(link.cancel(2)).toEqual([write(2, 'can', CAN_BYTE)]);
    expect(link.written(2, 'can')).toEqual([start('eot', 2000)]);
    expect(link.receive(eot)).toEqual([resetDecoder, stop('eot'), start('silence', 500), start('settleLimit', 2000)]);
    expect(link.expire('silence')).toEqual([
      stop('settleLimit'),
      resetDecoder,
      rejects(1, 'CANCELLED', 'GCD was cancelled.'),
      { type: 'resolveCancel', op: 2, result: { eot: true } },
    ]);
    expect(link.busy).toBe(false);
  });

  it('stops the waits of the command it cancels', () => {
    const link = new Link();
    link.acked('GIX000', { timeoutMs: 30_000 });
    expect(link.cancel()).toEqual([stop('response'), stop('deadline'), write(2, 'can', CAN_BYTE)]);
  });

  it('decodes and drops what was in flight before the EOT: a 04h inside a packet is no EOT', () => {
    const link = new Link();
    link.acked('GCD000', { blocking: true });
    link.cancel();
    link.written(2, 'can');
    expect(link.receive(packet(Buffer.concat([ascii('GCD000004'), Buffer.of(EOT, EOT, EOT, EOT)])))).toEqual([]);
    expect(link.receive(eot)).toContainEqual(start('silence', 500));
  });

  it('late bytes after the EOT are discarded and restart the silence wait', () => {
    const link = new Link();
    link.acked('GCD000', { blocking: true });
    link.cancel();
    link.receive(eot);
    expect(link.receive(packet('GCD013'))).toEqual([resetDecoder, start('silence', 500)]);
  });

  it('a line that never falls quiet after EOT ends the cancel after 2 s all the same', () => {
    const link = new Link();
    link.acked('GCD000', { blocking: true });
    link.cancel();
    link.receive(eot);
    expect(link.expire('settleLimit')).toEqual([
      stop('silence'),
      resetDecoder,
      rejects(1, 'CANCELLED'),
      { type: 'resolveCancel', op: 2, result: { eot: true } },
    ]);
  });

  it('sends CAN three times at most: without EOT the cancel fails CANCEL_UNANSWERED and the command still rejects CANCELLED', () => {
    const link = new Link();
    link.acked('GCD000', { blocking: true });
    link.cancel();
    link.written(2, 'can');
    expect(link.expire('eot')).toEqual([resetDecoder, write(2, 'can', CAN_BYTE)]);
    link.written(2, 'can');
    expect(link.expire('eot')).toEqual([resetDecoder, write(2, 'can', CAN_BYTE)]);
    link.written(2, 'can');
    expect(link.expire('eot')).toEqual([
      resetDecoder,
      rejects(1, 'CANCELLED'),
      {
        type: 'rejectCancel',
        op: 2,
        failure: {
          code: 'CANCEL_UNANSWERED',
          message: 'The PINPAD did not confirm the cancellation of GCD after 3 CAN bytes.',
        },
      },
    ]);
  });

  it('a cancel asked for while one runs joins it', () => {
    const link = new Link();
    link.cancel(1);
    expect(link.cancel(2)).toEqual([{ type: 'join', op: 1 }]);
  });

  it("cancels the command when the caller's signal aborts, and rejects it CANCELLED", () => {
    const link = new Link();
    link.acked('GCD000', { blocking: true });
    expect(effects(link.feed({ type: 'abort', op: 1 }))).toEqual([write(1, 'can', CAN_BYTE)]);
    link.receive(eot);
    expect(link.expire('silence')).toContainEqual(rejects(1, 'CANCELLED', 'GCD was cancelled.'));
  });

  it('ignores the signal of a command that is no longer in flight', () => {
    const link = new Link();
    link.acked('GIX000');
    link.receive(packet('GIX000'));
    expect(link.feed({ type: 'abort', op: 1 })).toEqual([]);
  });

  it("cancels the command when the caller's deadline passes, and rejects it TIMEOUT", () => {
    const link = new Link();
    link.sent('GCD000', { blocking: true, timeoutMs: 60_000, label: 'GCD (read CPF)' });
    expect(link.timers).toContain('deadline');
    link.receive(ack);
    expect(link.expire('deadline')).toEqual([write(1, 'can', CAN_BYTE)]);
    link.written(1, 'can');
    link.receive(eot);
    expect(link.expire('silence')).toContainEqual(
      rejects(1, 'TIMEOUT', 'GCD (read CPF) did not finish within 60 s and was cancelled.'),
    );
  });

  it('only logs when the PINPAD ignores a CAN the link sent on its own', () => {
    const link = new Link();
    link.acked('GCD000', { blocking: true, timeoutMs: 60_000 });
    link.expire('deadline');
    link.expire('eot'); // not started yet: the CAN is still on its way
    for (let i = 0; i < 3; i++) {
      link.written(1, 'can');
      const actions = link.feed({ type: 'timeout', timer: 'eot' });
      if (i === 2) {
        expect(effects(actions)).toContainEqual(rejects(1, 'TIMEOUT'));
        expect(actions).toContainEqual(expect.objectContaining({ type: 'log', message: 'cancel after abort failed' }));
      }
    }
    expect(link.busy).toBe(false);
  });
});

describe('the start-up reset (S220 §2.2.2.3)', () => {
  it('reports that the PINPAD answered the start-up CAN with EOT', () => {
    const link = new Link();
    expect(link.reset(1)).toEqual([write(1, 'can', CAN_BYTE)]);
    link.written(1, 'can');
    link.receive(eot);
    expect(link.expire('silence')).toEqual([
      stop('settleLimit'),
      resetDecoder,
      { type: 'resolveCancel', op: 1, result: { eot: true } },
    ]);
  });

  it('accepts a silent PINPAD after three CANs', () => {
    const link = new Link();
    link.reset(1);
    const cans: LinkAction[] = [];
    for (let i = 0; i < 3; i++) {
      link.written(1, 'can');
      cans.push(...link.expire('eot'));
    }
    expect(cans.filter((action) => action.type === 'write')).toHaveLength(2);
    expect(cans.at(-1)).toEqual({ type: 'resolveCancel', op: 1, result: { eot: false } });
  });

  it('refuses a cancel during the start-up reset with BUSY', () => {
    const link = new Link();
    link.reset(1);
    expect(link.cancel(2)).toEqual(
      refused('BUSY', 'The PINPAD is busy with the start-up reset; one command at a time.'),
    );
  });
});

describe('one command at a time', () => {
  it('refuses a second command with BUSY, and a reset too, leaving the first untouched', () => {
    const link = new Link();
    link.acked('GCD000', { blocking: true });
    const before = link.state;
    expect(link.send('DSP000', { op: 2 })).toEqual(
      refused('BUSY', 'The PINPAD is busy with GCD; one command at a time.'),
    );
    expect(link.reset(3)).toEqual(refused('BUSY'));
    expect(link.state).toEqual(before);
  });

  it('refuses to send on a line that is down (DISCONNECTED) or for a caller who already aborted (CANCELLED)', () => {
    const link = new Link();
    expect(link.send('GIX000', { lineUp: false })).toEqual(
      refused('DISCONNECTED', 'Cannot send GIX: the link to the PINPAD is down.'),
    );
    expect(link.send('GIX000', { aborted: true })).toEqual(
      refused('CANCELLED', 'GIX was cancelled before it was sent.'),
    );
    expect(link.busy).toBe(false);
  });

  it('refuses an empty packet with FrameError before the link becomes busy', () => {
    const link = new Link();
    expect(() => link.send(Buffer.alloc(0))).toThrow(FrameError);
    expect(link.busy).toBe(false);
  });
});

describe('the transport', () => {
  it('when it closes, everything in flight rejects DISCONNECTED and every wait stops', () => {
    const link = new Link();
    link.acked('GIX000', { timeoutMs: 30_000 });
    link.receivePartial();
    expect(effects(link.feed({ type: 'closed', expected: false }))).toEqual([
      stop('response'),
      stop('interByte'),
      stop('deadline'),
      resetDecoder,
      rejects(
        1,
        'DISCONNECTED',
        'The connection to the PINPAD was lost during the identification command (GIX): check the cable (or the network) and that the PINPAD is switched on.',
      ),
    ]);
    expect(link.busy).toBe(false);
  });

  it('a cancel in flight fails with its command when the transport closes', () => {
    const link = new Link();
    link.acked('GCD000', { blocking: true });
    link.cancel(2);
    expect(effects(link.feed({ type: 'closed', expected: false }))).toEqual([
      resetDecoder,
      rejects(1, 'DISCONNECTED'),
      cancelRejects(2, 'DISCONNECTED'),
    ]);
  });

  it('a write the transport rejects fails the command with DISCONNECTED, with the cause', () => {
    const link = new Link();
    link.send('GIX000');
    const cause = new Error('EIO');
    expect(effects(link.feed({ type: 'writeFailed', op: 1, carries: 'command', cause }))).toEqual([
      resetDecoder,
      {
        type: 'rejectCommand',
        op: 1,
        failure: { code: 'DISCONNECTED', message: 'Sending GIX failed: the link to the PINPAD is down.', cause },
      },
    ]);
  });

  it('a write found the line down fails the command with DISCONNECTED', () => {
    const link = new Link();
    link.acked('GIX000');
    link.receive(corrupted);
    link.expire('silence'); // the NAK is due
    expect(effects(link.feed({ type: 'lineDown' }))).toEqual([
      stop('response'),
      resetDecoder,
      rejects(1, 'DISCONNECTED', 'Cannot send GIX: the link to the PINPAD is down.'),
    ]);
  });

  it('ignores what the transport reports about the writes of a finished command', () => {
    const link = new Link();
    link.sent('GIX000');
    link.expire('ack');
    link.sent('OPN000', { op: 2 });
    expect(link.written(1, 'command')).toEqual([]);
    expect(link.feed({ type: 'writeFailed', op: 1, carries: 'command', cause: new Error('late') })).toEqual([]);
    expect(link.busy).toBe(true);
  });

  it('disposing rejects what is in flight, stops every wait and refuses everything after', () => {
    const link = new Link();
    link.receivePartial(); // a stray partial packet while idle: its inter-byte wait runs
    expect(effects(link.feed({ type: 'dispose' }))).toEqual([stop('interByte')]);
    expect(link.send('GIX000')).toEqual(refused('DISCONNECTED', 'Cannot send GIX: the PINPAD link was closed.'));
    expect(link.cancel()).toEqual(refused('DISCONNECTED'));
    expect(link.reset()).toEqual(refused('DISCONNECTED'));

    const busy = new Link();
    busy.acked('GCD000', { blocking: true });
    expect(effects(busy.feed({ type: 'dispose' }))).toEqual([
      resetDecoder,
      rejects(1, 'DISCONNECTED', 'The PINPAD link was closed during GCD.'),
    ]);
  });
});

describe('timers', () => {
  it('an expiry the machine did not ask for changes nothing', () => {
    const link = new Link();
    link.acked('GIX000');
    const before = link.state;
    for (const timer of ['ack', 'silence', 'eot', 'settleLimit', 'deadline', 'interByte', 'purgeLimit'] as const) {
      expect(link.feed({ type: 'timeout', timer })).toEqual([]);
    }
    expect(link.state).toEqual(before);
  });

  it('an inter-byte wait that expires outside a response only drops the partial packet', () => {
    const link = new Link();
    link.receivePartial();
    expect(link.expire('interByte')).toEqual([resetDecoder]);
  });
});
