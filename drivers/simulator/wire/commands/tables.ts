/**
 * EMV table maintenance (S220 §3.5, §6.7; abecs.md §3.13): GTS, TLI, TLR, TLE.
 */
import { okReply, onlyBlock, type DeviceCommand, type Reading } from '../command.js';
import { FieldReader, formatA, invalid } from '../fields.js';
import type { CommandPacket } from '../packet.js';
import { ST } from '../statuses.js';
import { decodeTlrBlock } from '../tables.js';
import { noParameters } from './control.js';

/** GTS_ACQIDX / TLI_ACQIDX: N2, "00" = every acquirer. */
function acquirerBlock(packet: CommandPacket, reading: Reading, fields: (reader: FieldReader) => void): number {
  const reader = new FieldReader(onlyBlock(packet, reading), packet.id);
  const acquirer = reader.number(2, `${packet.id}_ACQIDX`);
  fields(reader);
  reader.end();
  return acquirer;
}

/** GTS (§3.5.1): GTS_ACQIDX N2 → GTS_TABVER A10 (zeros when nothing is loaded). */
export const GTS: DeviceCommand<{ readonly acquirer: number }, { readonly tableVersion: string }> = {
  id: 'GTS',
  blocking: false,
  abecs: false,
  decode: (packet, reading) => ({ acquirer: acquirerBlock(packet, reading, () => {}) }),
  encode: (result) => okReply([Buffer.from(formatA(result.tableVersion, 10), 'latin1')]),
};

/**
 * TLI (§3.5.2, §6.7.2): TLI_ACQIDX N2 + TLI_TABVER A10. The version's content is not checked ("não
 * faz críticas quanto ao conteúdo de TLI_TABVER"). ST_OK when it equals the stored one,
 * ST_TABVERDIF (informative) when it differs: both start the load.
 */
export const TLI: DeviceCommand<
  { readonly acquirer: number; readonly tableVersion: string },
  { readonly versionDiffers: boolean }
> = {
  id: 'TLI',
  blocking: false,
  abecs: false,
  decode(packet, reading) {
    let tableVersion = '';
    const acquirer = acquirerBlock(packet, reading, (reader) => {
      tableVersion = reader.bytes(10, 'TLI_TABVER').toString('latin1');
    });
    return { acquirer, tableVersion };
  },
  encode: (result) => ({ status: result.versionDiffers ? ST.TABVERDIF : ST.OK, blocks: [] }),
};

/** TLR (§3.5.3, §6.7.3): TLR_NREC N2 + records, each led by TAB_LEN (tables.ts). */
export const TLR: DeviceCommand<{ readonly records: readonly Buffer[] }, Record<string, never>> = {
  id: 'TLR',
  blocking: false,
  abecs: false,
  decode(packet, reading) {
    const block = onlyBlock(packet, reading);
    if (block.length < 2) throw invalid('TLR: TLR_NREC is missing.');
    return { records: decodeTlrBlock(block) };
  },
  encode: () => okReply(),
};

/** TLE (§3.5.4, §6.7.4): no parameters. */
export const TLE = noParameters('TLE', false);
