/**
 * LogLines, the log lines' way to OTLP: a line is only kept when logged; on the pusher's round it
 * becomes a record — from the level up, masked, without the fields that name a sale or a person,
 * without the host — and the log pusher's own lines stay home (sent, each would make the next
 * refused batch). The buffer between rounds is bounded, the oldest dropped and counted.
 */
import { describe, expect, it } from 'vitest';
import { maskSupportText } from '../../../main/support/mask.js';
import { LogLines, OWN_PUSHER } from '../../../main/telemetry/otlp-logs.js';
import { attributesOf, decodeLogs } from '../../helpers/otlp-receiver.js';

const identity = { version: '1.0.0', chain: 'acme', store: 'sp-01', checkout: 'pdv-3', mode: 'live' } as const;

const line = (fields: Record<string, unknown>): string =>
  JSON.stringify({ level: 40, time: 1_795_000_000_000, pid: 4242, hostname: 'caixa-03.loja.local', ...fields });

function records(lines: LogLines) {
  const body = lines.take();
  if (body === undefined) return [];
  return decodeLogs(body).resourceLogs![0]!.scopeLogs![0]!.logRecords!.map((record) => ({
    severity: record.severityText,
    body: record.body?.stringValue,
    attributes: attributesOf(record.attributes),
  }));
}

describe('LogLines', () => {
  it('sends warnings and errors with their fields, masked, without ids of the sale, the host or the pid', () => {
    const lines = new LogLines({ identity, minLevel: 40, mask: maskSupportText, pinpads: () => ['PB-1', 'PB-2'] });
    lines.write(line({ level: 30, msg: 'info stays' }));
    lines.write(
      line({
        msg: 'customer 529.982.247-25 asked again',
        reference: 'pedido-991',
        transactionId: 'tr_123',
        nsu: '000123',
        payment: 'a'.repeat(32),
        detail: { cpf: '52998224725', nested: [1, 2] },
      }),
    );
    lines.write(line({ level: 60, msg: 'fatal', name: 'pinbridge' }));
    lines.write('not json at all');
    const body = lines.take()!;
    const decoded = decodeLogs(body).resourceLogs![0]!;
    expect(attributesOf(decoded.resource?.attributes)['pinbridge.pinpad.serial']).toEqual(['PB-1', 'PB-2']);
    const sent = decoded.scopeLogs![0]!.logRecords!.map((record) => ({
      severity: record.severityText,
      body: record.body?.stringValue,
      attributes: attributesOf(record.attributes),
    }));
    expect(sent).toEqual([
      {
        severity: 'WARN',
        body: 'customer 529.***.***-** asked again',
        attributes: { payment: 'a'.repeat(32), detail: '{"cpf":"529********","nested":[1,2]}' },
      },
      { severity: 'FATAL', body: 'fatal', attributes: { 'pinbridge.logger': 'pinbridge' } },
    ]);
    expect(Buffer.from(body).toString('latin1')).not.toContain('caixa-03');
    expect(lines.take()).toBeUndefined();
  });

  it("leaves the log pusher's own lines home, and sends the other pushers' troubles", () => {
    const lines = new LogLines({ identity, minLevel: 40, mask: maskSupportText });
    lines.write(line({ pushing: OWN_PUSHER, msg: 'telemetry push failed (OTLP logs); retrying' }));
    lines.write(line({ pushing: 'metrics', msg: 'telemetry push failed (metrics); retrying' }));
    expect(records(lines).map((record) => record.body)).toEqual(['telemetry push failed (metrics); retrying']);
  });

  it('keeps at most maxPending lines between two rounds, dropping and counting the oldest', () => {
    let dropped = 0;
    const lines = new LogLines({
      identity,
      minLevel: 50,
      mask: (text) => text,
      maxPending: 2,
      onDrop: () => dropped++,
    });
    for (const n of [1, 2, 3]) lines.write(line({ level: 50, msg: `error ${n}` }));
    expect(lines.pending).toBe(2);
    expect(dropped).toBe(1);
    expect(records(lines).map((record) => record.body)).toEqual(['error 2', 'error 3']);
  });
});
