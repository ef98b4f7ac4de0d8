/**
 * Parameter ids of the Abecs commands (SPE_*, host → PINPAD; S220 §3.1.3.1) and response data
 * ids (PP_*, PINPAD → host; S220 §3.1.3.2), as the simulator uses them. abecs.md §2.4–§2.5.
 */
export const SPE = Object.freeze({
  IDLIST: 0x0001,
  MTHDPIN: 0x0002,
  MTHDDAT: 0x0003,
  TAGLIST: 0x0004,
  EMVDATA: 0x0005,
  CEXOPT: 0x0006,
  TRACKS: 0x0007,
  OPNDIG: 0x0008,
  KEYIDX: 0x0009,
  WKENC: 0x000a,
  MSGIDX: 0x000b,
  TIMEOUT: 0x000c,
  MINDIG: 0x000d,
  MAXDIG: 0x000e,
  DATAIN: 0x000f,
  ACQREF: 0x0010,
  APPTYPE: 0x0011,
  AIDLIST: 0x0012,
  AMOUNT: 0x0013,
  CASHBACK: 0x0014,
  TRNDATE: 0x0015,
  TRNTIME: 0x0016,
  GCXOPT: 0x0017,
  GOXOPT: 0x0018,
  FCXOPT: 0x0019,
  TRMPAR: 0x001a,
  DSPMSG: 0x001b,
  ARC: 0x001c,
  IVCBC: 0x001d,
  MFNAME: 0x001e,
  MFINFO: 0x001f,
  MNUOPT: 0x0020,
  TRNTYPE: 0x0021,
  TRNCURR: 0x0022,
  PANMASK: 0x0023,
  PBKMOD: 0x0024,
  PBKEXP: 0x0025,
  /** 2.20 only. */
  GCDOPT: 0x0026,
} as const);

export const PP = Object.freeze({
  SERNUM: 0x8001,
  PARTNBR: 0x8002,
  MODEL: 0x8003,
  MNNAME: 0x8004,
  CAPAB: 0x8005,
  SOVER: 0x8006,
  SPECVER: 0x8007,
  MANVERS: 0x8008,
  APPVERS: 0x8009,
  GENVERS: 0x800a,
  /** 2.20 only. */
  CTLSCAPAB: 0x800b,
  KRNLVER: 0x8010,
  CTLSVER: 0x8011,
  MCTLSVER: 0x8012,
  VCTLSVER: 0x8013,
  AECTLSVER: 0x8014,
  DPCTLSVER: 0x8015,
  PUREVER: 0x8016,
  QPCTLSVER: 0x8018,
  DSPTXTSZ: 0x8020,
  DSPGRSZ: 0x8021,
  MFSUP: 0x8022,
  /** Reserved in 2.12 (MK:DES:PIN map). */
  MKDESP: 0x8030,
  /** Reserved in 2.12 (MK:DES:DAT map). */
  MKDESD: 0x8031,
  MKTDESP: 0x8032,
  MKTDESD: 0x8033,
  /** Reserved in 2.12 (DUKPT:DES:PIN map). */
  DKPTDESP: 0x8034,
  DKPTTDESP: 0x8035,
  DKPTTDESD: 0x8036,
  EVENT: 0x8040,
  TRK1INC: 0x8041,
  TRK2INC: 0x8042,
  TRK3INC: 0x8043,
  TRACK1: 0x8044,
  TRACK2: 0x8045,
  TRACK3: 0x8046,
  TRK1KSN: 0x8047,
  TRK2KSN: 0x8048,
  TRK3KSN: 0x8049,
  ENCPAN: 0x804a,
  ENCPANKSN: 0x804b,
  KSN: 0x804c,
  VALUE: 0x804d,
  DATAOUT: 0x804e,
  CARDTYPE: 0x804f,
  ICCSTAT: 0x8050,
  AIDTABINFO: 0x8051,
  PAN: 0x8052,
  PANSEQNO: 0x8053,
  EMVDATA: 0x8054,
  CHNAME: 0x8055,
  GOXRES: 0x8056,
  PINBLK: 0x8057,
  FCXRES: 0x8058,
  ISRESULTS: 0x8059,
  BIGRAND: 0x805a,
  LABEL: 0x805b,
  ISSCNTRY: 0x805c,
  CARDEXP: 0x805d,
  MFNAME: 0x805e,
  DEVTYPE: 0x8060,
  TLRMEM: 0x8062,
  ENCKRAND: 0x8063,
  /** 2.20 only. */
  BATTINFO: 0x8064,
  /** 2.20 only. */
  COMMINFO: 0x8065,
} as const);

function slotId(base: number, slot: number): number {
  // "nn" is a decimal index stored as binary in the low byte: slot 14 is 0Eh (S220 §3.1.3.2).
  if (!Number.isInteger(slot) || slot < 0 || slot > 99) throw new RangeError(`Index ${slot} is not 00–99.`);
  return base + slot;
}

/** PP_KSNTDESPnn: KSN of DUKPT:TDES:PIN slot nn (9100h + nn). */
export const ppKsnTdesPin = (slot: number): number => slotId(0x9100, slot);
/** PP_KSNTDESDnn: KSN of DUKPT:TDES:DAT slot nn (9200h + nn). */
export const ppKsnTdesData = (slot: number): number => slotId(0x9200, slot);
/** PP_TABVERnn: EMV table version of acquirer nn, 00 = the global one (9300h + nn). */
export const ppTableVersion = (acquirer: number): number => slotId(0x9300, acquirer);

/** The index nn of a PP_xxxnn id of the given base (9100h, 9200h, 9300h), if it is one. */
export function indexedId(id: number, base: number): number | undefined {
  const index = id - base;
  return index >= 0 && index <= 99 ? index : undefined;
}
