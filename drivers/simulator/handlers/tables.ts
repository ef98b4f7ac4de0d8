/**
 * GIX (device information) and the EMV table commands GTS, TLI, TLR, TLE (abecs.md §3.4, §3.13).
 */
import { defineHandler, ST, StatusReply, type CommandHandler } from '../handler.js';
import { keyLoaded, keyMapOf } from '../profiles.js';
import type { DeviceState } from '../state.js';
import { GIX } from '../wire/commands/control.js';
import { GTS, TLE, TLI, TLR } from '../wire/commands/tables.js';
import { indexedId, PP } from '../wire/ids.js';
import type { TlvItem } from '../wire/tlv.js';
import { kernelVersions, MANAGER_VERSION } from './basic.js';

type GixItem = TlvItem;

/** Bytes the simulator pretends to have free for table records. */
const TABLE_MEMORY = 256 * 1024;
/** The reserved key maps (8030h, 8031h, 8034h) the PPC-930 fills with '0' in its GIX answer. */
const RESERVED_MAPS = [PP.MKDESP, PP.MKDESD, PP.DKPTDESP] as const;

const text = (id: number, value: string): GixItem => ({ id, value: Buffer.from(value, 'latin1') });

function tlrMemory(): GixItem {
  const memory = Buffer.alloc(4);
  memory.writeUInt32BE(TABLE_MEMORY, 0);
  return { id: PP.TLRMEM, value: memory };
}

/** PP_DSPTXTSZ "LLCC" of the profile's display. */
function textSize(device: DeviceState): string {
  const { lines, columns } = device.profile.display;
  return String(lines).padStart(2, '0') + String(columns).padStart(2, '0');
}

/** PP_DSPGRSZ and PP_MFSUP, on a PINPAD with a graphic display only. */
function graphicItems(device: DeviceState): GixItem[] {
  const graphic = device.profile.graphic;
  return graphic ? [text(PP.DSPGRSZ, graphic.size), text(PP.MFSUP, graphic.mediaSupport)] : [];
}

/** The items a parameterless GIX returns (the † items of abecs.md §2.5), ascending id. */
function standardItems(device: DeviceState): GixItem[] {
  if (device.profile.name === 'ppc930') return ppc930Items(device);
  const id = device.identity;
  const version = MANAGER_VERSION.padEnd(16);
  const kernels = kernelVersions(device);
  return [
    text(PP.SERNUM, id.serialNumber.slice(0, 32)),
    text(PP.PARTNBR, id.partNumber.slice(0, 32)),
    text(PP.MODEL, `${id.model};${device.profile.identity.memory}`.slice(0, 20)),
    text(PP.MNNAME, id.manufacturer.slice(0, 20)),
    // CTLS yes, text display, ICC reader, magnetic reader, no SAM.
    text(PP.CAPAB, device.profile.capabilities),
    text(PP.SOVER, id.firmware.slice(0, 20)),
    text(PP.SPECVER, id.specVersion.slice(0, 4)),
    text(PP.MANVERS, version),
    text(PP.APPVERS, version),
    text(PP.GENVERS, version),
    text(PP.CTLSCAPAB, '2469'),
    text(PP.KRNLVER, kernels.kernel),
    text(PP.CTLSVER, kernels.contactless),
    text(PP.MCTLSVER, kernels.mastercard),
    text(PP.VCTLSVER, kernels.visa),
    text(PP.DSPTXTSZ, textSize(device)),
    ...graphicItems(device),
    text(PP.MKTDESP, keyMapOf(device.keys.mkPin)),
    text(PP.MKTDESD, keyMapOf(device.keys.mkData)),
    text(PP.DKPTTDESP, keyMapOf(device.keys.dukptPin)),
    text(PP.DKPTTDESD, keyMapOf(device.keys.dukptData)),
    tlrMemory(),
  ];
}

/**
 * The PPC-930's parameterless GIX, item for item in the TRACE's order (17:36:29): kernel
 * versions as it reported them (8016h before 8012h), no 2.20 items (PP_CTLSCAPAB), the
 * reserved maps 8030h/8031h/8034h, PP_TLRMEM last. Identity fields come from the options.
 */
function ppc930Items(device: DeviceState): GixItem[] {
  const id = device.identity;
  const version = '002.14 200921   ';
  const kernels = kernelVersions(device);
  const reserved = new Map(RESERVED_MAPS.map((mapId) => [mapId, text(mapId, '0'.repeat(100))]));
  return [
    text(PP.SERNUM, id.serialNumber.slice(0, 32)),
    text(PP.PARTNBR, id.partNumber.slice(0, 32)),
    text(PP.MODEL, `${id.model};${device.profile.identity.memory}`.slice(0, 20)),
    text(PP.MNNAME, id.manufacturer.slice(0, 20)),
    text(PP.CAPAB, device.profile.capabilities),
    text(PP.SOVER, id.firmware.slice(0, 20)),
    text(PP.SPECVER, id.specVersion.slice(0, 4)),
    text(PP.MANVERS, version),
    text(PP.APPVERS, version),
    text(PP.GENVERS, version),
    text(PP.KRNLVER, kernels.kernel),
    text(PP.CTLSVER, kernels.contactless),
    text(PP.PUREVER, '1.0.1-20180614'),
    text(PP.MCTLSVER, kernels.mastercard),
    text(PP.VCTLSVER, kernels.visa),
    text(PP.AECTLSVER, '1.0.1-20170601'),
    text(PP.DPCTLSVER, '1.0.0-20150224'),
    text(PP.DSPTXTSZ, textSize(device)),
    ...graphicItems(device),
    reserved.get(PP.MKDESP)!,
    reserved.get(PP.MKDESD)!,
    text(PP.MKTDESP, keyMapOf(device.keys.mkPin)),
    text(PP.MKTDESD, keyMapOf(device.keys.mkData)),
    reserved.get(PP.DKPTDESP)!,
    text(PP.DKPTTDESP, keyMapOf(device.keys.dukptPin)),
    text(PP.DKPTTDESD, keyMapOf(device.keys.dukptData)),
    tlrMemory(),
  ];
}

/**
 * One requested id: a standard item, the KSN of a loaded DUKPT slot or a loaded table version;
 * else nothing (the TRACE's GIX asking 9101h and 9105h got only 9101h back).
 */
function itemFor(device: DeviceState, standard: ReadonlyMap<number, GixItem>, id: number): GixItem | undefined {
  const known = standard.get(id);
  if (known) return known;
  const pinSlot = indexedId(id, 0x9100);
  if (pinSlot !== undefined)
    return keyLoaded(device.keys.dukptPin, pinSlot)
      ? { id, value: device.dukpt.currentKsn('pin', pinSlot) }
      : undefined;
  const dataSlot = indexedId(id, 0x9200);
  if (dataSlot !== undefined)
    return keyLoaded(device.keys.dukptData, dataSlot)
      ? { id, value: device.dukpt.currentKsn('data', dataSlot) }
      : undefined;
  const acquirer = indexedId(id, 0x9300);
  if (acquirer !== undefined) {
    const loaded = device.tables.loaded().find((entry) => entry.acquirer === acquirer);
    return loaded ? text(id, loaded.version) : undefined;
  }
  return undefined;
}

/**
 * GIX: the requested items in request order (unknown ids ignored, repeats repeated; S220
 * §6.4.3). Without SPE_IDLIST: every standard item, as the PPC-930 did, or ST_MANDAT on a
 * PINPAD that follows §6.4.3 to the letter (strict profile).
 */
const gix = defineHandler(GIX, (req, { device }) => {
  const standard = standardItems(device);
  if (!req.ids) {
    if (device.profile.gixNeedsIdList) throw new StatusReply(ST.MANDAT);
    return { items: standard };
  }
  const byId = new Map(standard.map((item) => [item.id, item]));
  const items: GixItem[] = [];
  for (const id of req.ids) {
    const item = itemFor(device, byId, id);
    if (item) items.push(item);
  }
  return { items };
});

const gts = defineHandler(GTS, (req, { device }) => ({ tableVersion: device.tables.version(req.acquirer) }));

/** TLI: starts a load; 020 when the version differs (both mean "go on with TLR/TLE"). */
const tli = defineHandler(TLI, (req, { device }) => ({
  versionDiffers: device.tables.begin(req.acquirer, req.tableVersion),
}));

const tlr = defineHandler(TLR, (req, { device }) => {
  if (!device.tables.add(req.records)) throw new StatusReply(ST.INVCALL);
  return {};
});

const tle = defineHandler(TLE, (_req, { device }) => {
  if (!device.tables.commit()) throw new StatusReply(ST.INVCALL);
  return {};
});

export const TABLE_HANDLERS: readonly CommandHandler[] = [gix, gts, tli, tlr, tle];
