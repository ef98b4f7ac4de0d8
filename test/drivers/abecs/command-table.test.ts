/**
 * Every ABECS command is declared once (drivers/abecs/command-table.ts, issue 36) and the lists
 * that used to be kept in step by hand follow from it: the link machine's names, the trace
 * masking's TLV and plain commands. A command with a codec and no declaration, or a declaration
 * missing what the others need, fails here (and an incomplete one fails the typecheck first); the
 * simulator, written from the spec and not from this table, is checked to agree with it.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ABECS_COMMANDS, commandIds, type CommandDeclaration } from '../../../drivers/abecs/command-table.js';
import { describeCommand } from '../../../drivers/abecs/link-machine.js';
import { maskPacket } from '../../../drivers/abecs/trace/mask.js';
import { ABECS_TLV_COMMANDS } from '../../../drivers/simulator/profiles.js';

const COMMANDS_DIR = fileURLToPath(new URL('../../../drivers/abecs/commands/', import.meta.url));
const declarations: [string, CommandDeclaration][] = Object.entries(ABECS_COMMANDS);

// A declaration missing what the others need does not compile: the table is checked against
// CommandDeclaration with `satisfies`, as this one would be.
// @ts-expect-error — no `trace`: how would a trace keep its data?
const incomplete: CommandDeclaration = { name: 'get-info', format: 'fixed' };

describe('the ABECS command table', () => {
  it('declares every command the driver has a codec for (drivers/abecs/commands/<id>.ts)', () => {
    const codecs = readdirSync(COMMANDS_DIR)
      .filter((file) => /^[a-z]{3}\.ts$/.test(file))
      .map((file) => file.slice(0, 3).toUpperCase());
    expect(codecs.length).toBeGreaterThan(20);
    expect(codecs.filter((id) => !(id in ABECS_COMMANDS))).toEqual([]);
  });

  it('declares each completely: a name, its layout, and how a trace keeps it — TLV ones by parameter, fixed ones not', () => {
    expect(incomplete.name).toBe('get-info');
    for (const [id, declaration] of declarations) {
      expect(id, 'three capital letters').toMatch(/^[A-Z]{3}$/);
      expect(declaration.name.trim(), id).not.toBe('');
      expect(['tlv', 'fixed'], id).toContain(declaration.format);
      expect(declaration.trace === 'tlv', `${id}: a TLV command is traced by parameter, a fixed one never`).toBe(
        declaration.format === 'tlv',
      );
      expect(['tlv', 'plain', 'own', 'dropped'], id).toContain(declaration.trace);
    }
  });

  it("names each command in the link's sentences", () => {
    for (const [id, declaration] of declarations)
      expect(describeCommand(id)).toBe(`the ${declaration.name} command (${id})`);
    expect(describeCommand('CAN')).toBe('the cancel command (CAN)');
    expect(describeCommand('XYZ')).toBe('XYZ');
  });

  it("agrees with the simulator's own list of Abecs (TLV) commands, written from S220 §3.1.3", () => {
    expect([...ABECS_TLV_COMMANDS].sort()).toEqual([...commandIds((command) => command.format === 'tlv')].sort());
  });

  it("is how a trace keeps each command's data: plain ones as they are; what is dropped, or never declared, by its id alone; no answer of a command with its own masker keeps a card number it cannot read", () => {
    const secret = '4111111111111111=2512';
    const field = `${String(secret.length).padStart(3, '0')}${secret}`;
    for (const [id, declaration] of declarations) {
      const command = Buffer.from(`${id}${field}`, 'latin1');
      const answer = Buffer.from(`${id}000${field}`, 'latin1');
      const [sent, answered] = [maskPacket('host', command), maskPacket('pinpad', answer)];
      expect([sent.id, answered.id], id).toEqual([id, id]);
      if (declaration.trace === 'plain') {
        expect(sent.data, id).toEqual(command);
        if (id !== 'ERR') expect(answered.data, id).toEqual(answer);
      }
      if (declaration.trace === 'dropped') expect([sent.data, answered.data], id).toEqual([undefined, undefined]);
      if (declaration.trace !== 'plain')
        expect(answered.data?.toString('latin1') ?? '', id).not.toContain('4111111111111111');
    }
    expect(maskPacket('host', Buffer.from(`XYZ${field}`, 'latin1'))).toEqual({ id: 'XYZ' });
  });
});
