/**
 * MNU — menu (abecs.md §3.12), TLV, blocking: optional SPE_TIMEOUT, optional SPE_DSPMSG title
 * (free text, CR line breaks), then 1–20 SPE_MNUOPT options (≤ 24 characters each, repeated in
 * display order; a leading digit may act as a hot key). Response: PP_VALUE with the 1-based index
 * of the chosen option ("01"–"20").
 */
import { InvalidArgumentError } from '../../errors.js';
import type { CommandCodec } from '../codec.js';
import { PP, SPE } from '../ids.js';
import { tlvsToBlocks, type Tlv } from '../tlv.js';
import { DSPMSG_MAX_LENGTH, formatDexText, parseDexText, toLatin1Display } from '../text.js';
import { TlvFields, malformedResponse, okResponse, tlv } from './basic-support.js';

const ID = 'MNU';
export const MNU_MAX_OPTIONS = 20;
export const MNU_OPTION_LENGTH = 24;

export interface MnuRequest {
  /** 1–20 options, each ≤ 24 characters, in display order. */
  readonly options: readonly string[];
  /** Title above the options ("\n" breaks lines). */
  readonly title?: string;
  /** Inactivity limit, 0–255 s; absent = wait forever. */
  readonly timeoutSeconds?: number;
}

export interface MnuResult {
  /** 1-based position of the chosen option. */
  readonly index: number;
}

export const mnuCommand: CommandCodec<MnuRequest, MnuResult> = {
  id: ID,
  blocking: true,

  encodeRequest(req) {
    if (req.options.length < 1 || req.options.length > MNU_MAX_OPTIONS) {
      throw new InvalidArgumentError(`A PINPAD menu has 1 to ${MNU_MAX_OPTIONS} options; got ${req.options.length}.`);
    }
    const tlvs: Tlv[] = [];
    if (req.timeoutSeconds !== undefined) tlvs.push(tlv.x1(SPE.TIMEOUT, 'MNU timeout', req.timeoutSeconds));
    if (req.title !== undefined) {
      tlvs.push(tlv.text(SPE.DSPMSG, formatDexText(req.title, { maxLength: DSPMSG_MAX_LENGTH })));
    }
    req.options.forEach((option, index) => {
      const text = toLatin1Display(option);
      if (text.length === 0 || text.length > MNU_OPTION_LENGTH) {
        throw new InvalidArgumentError(
          `Menu option ${index + 1} must have 1 to ${MNU_OPTION_LENGTH} characters; it has ${text.length}.`,
        );
      }
      tlvs.push(tlv.text(SPE.MNUOPT, text));
    });
    return { id: ID, blocks: tlvsToBlocks(tlvs) };
  },

  decodeRequest(cmd) {
    const f = TlvFields.command(cmd);
    const options = f.list.all(SPE.MNUOPT).map((value) => value.toString('latin1'));
    if (options.length === 0) throw f.error('the mandatory parameter SPE_MNUOPT is missing', 19);
    if (options.length > MNU_MAX_OPTIONS) throw f.error(`more than ${MNU_MAX_OPTIONS} SPE_MNUOPT options`);
    if (options.some((option) => option.length > MNU_OPTION_LENGTH)) {
      throw f.error(`an SPE_MNUOPT option exceeds ${MNU_OPTION_LENGTH} characters`);
    }
    const title = f.text(SPE.DSPMSG, 'SPE_DSPMSG', DSPMSG_MAX_LENGTH);
    const timeoutSeconds = f.x1(SPE.TIMEOUT, 'SPE_TIMEOUT');
    return {
      options,
      ...(title !== undefined ? { title: parseDexText(title) } : {}),
      ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
    };
  },

  encodeResponse(res) {
    if (!Number.isInteger(res.index) || res.index < 1 || res.index > MNU_MAX_OPTIONS) {
      throw new InvalidArgumentError(`A menu choice is from 1 to ${MNU_MAX_OPTIONS}, got ${res.index}.`);
    }
    return okResponse(ID, tlvsToBlocks([tlv.text(PP.VALUE, String(res.index).padStart(2, '0'))]));
  },

  decodeResponse(rsp) {
    const f = TlvFields.response(rsp);
    const value = f.require(f.text(PP.VALUE, 'PP_VALUE', 32), 'PP_VALUE');
    if (!/^[0-9]{1,2}$/.test(value) || Number(value) < 1 || Number(value) > MNU_MAX_OPTIONS) {
      throw malformedResponse(ID, `PP_VALUE must be an option number from 1 to ${MNU_MAX_OPTIONS}`);
    }
    return { index: Number(value) };
  },
};
