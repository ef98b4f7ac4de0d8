/**
 * GIX (device information) and the EMV table commands GTS, TLI, TLR, TLE (abecs.md §3.4, §3.13).
 */
import { gixCommand, type GixItem } from '../../abecs/commands/gix.js';
import { gtsCommand } from '../../abecs/commands/gts.js';
import { tleCommand } from '../../abecs/commands/tle.js';
import { tliCommand } from '../../abecs/commands/tli.js';
import { tlrCommand } from '../../abecs/commands/tlr.js';
import { PP, ppKsnTdesData, ppKsnTdesPin, ppTableVersion } from '../../abecs/ids.js';
import { defineHandler, ST, StatusReply, type CommandHandler } from '../handler.js';
import type { DeviceState } from '../state.js';
import { MANAGER_VERSION } from './basic.js';

/** Bytes the simulator pretends to have free for table records. */
const TABLE_MEMORY = 256 * 1024;
/** Every key slot 00–99 holds a key: the simulator never answers ST_ERRKEY. */
const ALL_SLOTS_LOADED = '1'.repeat(100);

const text = (id: number, value: string): GixItem => ({ id, value: Buffer.from(value, 'latin1') });

/** The items a parameterless GIX returns (the † items of abecs.md §2.5), ascending id. */
function standardItems(device: DeviceState): GixItem[] {
  const id = device.identity;
  const version = MANAGER_VERSION.padEnd(16);
  const memory = Buffer.alloc(4);
  memory.writeUInt32BE(TABLE_MEMORY, 0);
  return [
    text(PP.SERNUM, id.serialNumber.slice(0, 32)),
    text(PP.PARTNBR, id.partNumber.slice(0, 32)),
    text(PP.MODEL, `${id.model};64MB`.slice(0, 20)),
    text(PP.MNNAME, id.manufacturer.slice(0, 20)),
    // CTLS yes, text display, ICC reader, magnetic reader, no SAM.
    text(PP.CAPAB, '1011000000'),
    text(PP.SOVER, id.firmware.slice(0, 20)),
    text(PP.SPECVER, id.specVersion.slice(0, 4)),
    text(PP.MANVERS, version),
    text(PP.APPVERS, version),
    text(PP.GENVERS, version),
    text(PP.CTLSCAPAB, '2469'),
    text(PP.KRNLVER, 'SIM EMV 1.0'),
    text(PP.CTLSVER, 'SIM CTLS 1.0'),
    text(PP.MCTLSVER, 'SIM MC 1.0'),
    text(PP.VCTLSVER, 'SIM VISA 1.0'),
    text(PP.DSPTXTSZ, '0216'),
    text(PP.DSPGRSZ, '00000000'),
    text(PP.MFSUP, '000'),
    text(PP.MKTDESP, ALL_SLOTS_LOADED),
    text(PP.MKTDESD, ALL_SLOTS_LOADED),
    text(PP.DKPTTDESP, ALL_SLOTS_LOADED),
    text(PP.DKPTTDESD, ALL_SLOTS_LOADED),
    { id: PP.TLRMEM, value: memory },
  ];
}

/** A fixed per-slot KSN (B10): FFFF + the serial's last 10 hex-ish digits + slot counter. */
function slotKsn(device: DeviceState, slot: number): Buffer {
  const serial = device.identity.serialNumber.replace(/[^0-9]/g, '').slice(-10).padStart(10, '0');
  return Buffer.from(`FFFF${serial}${slot.toString(16).padStart(2, '0')}0000`, 'hex');
}

/** One requested id: a standard item, a DUKPT KSN or a loaded table version; else nothing. */
function itemFor(device: DeviceState, standard: ReadonlyMap<number, GixItem>, id: number): GixItem | undefined {
  const known = standard.get(id);
  if (known) return known;
  const slot = id & 0xff;
  if (slot <= 99) {
    if (id === ppKsnTdesPin(slot) || id === ppKsnTdesData(slot)) return { id, value: slotKsn(device, slot) };
    if (id === ppTableVersion(slot)) {
      const loaded = device.tables.loaded().find((entry) => entry.acquirer === slot);
      return loaded ? text(id, loaded.version) : undefined;
    }
  }
  return undefined;
}

/** GIX: all standard items, or the requested ones in request order (unknown ids ignored). */
const gix = defineHandler(gixCommand, (req, { device }) => {
  const standard = standardItems(device);
  if (!req.ids) return { items: standard };
  const byId = new Map(standard.map((item) => [item.id, item]));
  const items: GixItem[] = [];
  for (const id of req.ids) {
    const item = itemFor(device, byId, id);
    if (item) items.push(item);
  }
  return { items };
});

const gts = defineHandler(gtsCommand, (req, { device }) => ({ tableVersion: device.tables.version(req.acquirer) }));

/** TLI: starts a load; 020 when the version differs (both mean "go on with TLR/TLE"). */
const tli = defineHandler(tliCommand, (req, { device }) => ({
  versionDiffers: device.tables.begin(req.acquirer, req.tableVersion),
}));

const tlr = defineHandler(tlrCommand, (req, { device }) => {
  if (!device.tables.add(req.records)) throw new StatusReply(ST.INVCALL);
  return {};
});

const tle = defineHandler(tleCommand, (_req, { device }) => {
  if (!device.tables.commit()) throw new StatusReply(ST.INVCALL);
  return {};
});

export const TABLE_HANDLERS: readonly CommandHandler[] = [gix, gts, tli, tlr, tle];
