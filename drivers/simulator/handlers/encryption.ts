/**
 * EBX (S220 §3.3.6, §6.5.6): encrypts a host's buffer under a data key — MK/WK with the working
 * key the host sends, or DUKPT — ECB or CBC. The real PPC-930 answered it seven times in the
 * TRACE (the Scope TEF's own message crypto, MK/WK "10", data master key 02).
 */
import { dataSealer } from '../data-encryption.js';
import { defineHandler, type CommandHandler } from '../handler.js';
import { EBX } from '../wire/commands/security.js';

const ebx = defineHandler(EBX, (req, { device }) => {
  const sealed = dataSealer(device, req.encryption).encrypt(req.data);
  return { data: sealed.data, ...(sealed.ksn ? { ksn: sealed.ksn } : {}) };
});

export const ENCRYPTION_HANDLERS: readonly CommandHandler[] = [ebx];
