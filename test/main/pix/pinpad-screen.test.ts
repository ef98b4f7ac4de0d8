import { describe, expect, it } from 'vitest';
import { pinpadScreenFromGix } from '../../../main/pix/pinpad-screen.js';
import { QrImageError } from '../../../main/pix/qr-image.js';
import { thrown } from '../../helpers/thrown.js';

describe("a PINPAD's graphic display from GIX", () => {
  it('reads the PPC-930\'s trace: PP_DSPGRSZ "03200240" is 240 across and 320 down, PP_MFSUP "11" PNG and JPG', () => {
    expect(pinpadScreenFromGix({ graphicSize: '03200240', mediaSupport: '11', maxBytes: 65_536 })).toEqual({
      width: 240,
      height: 320,
      formats: ['png', 'jpg'],
      maxBytes: 65_536,
    });
  });

  it('reads GIF from the third flag, and nothing from zeros', () => {
    expect(pinpadScreenFromGix({ graphicSize: '02400320', mediaSupport: '0010', maxBytes: 1 })?.formats).toEqual([
      'gif',
    ]);
    expect(pinpadScreenFromGix({ graphicSize: '02400320', mediaSupport: '000', maxBytes: 1 })?.formats).toEqual([]);
    expect(pinpadScreenFromGix({ graphicSize: '02400320', mediaSupport: undefined, maxBytes: 1 })?.formats).toEqual([]);
  });

  it('is no screen on a text-only PINPAD (no item, or zeros)', () => {
    expect(pinpadScreenFromGix({ graphicSize: undefined, mediaSupport: '11', maxBytes: 1 })).toBeUndefined();
    expect(pinpadScreenFromGix({ graphicSize: '00000000', mediaSupport: '11', maxBytes: 1 })).toBeUndefined();
  });

  it.each([['0320024'], ['0320x240'], ['00000240']])('refuses PP_DSPGRSZ "%s"', (graphicSize) => {
    const error = thrown(() => pinpadScreenFromGix({ graphicSize, mediaSupport: '11', maxBytes: 1 }));
    expect(error).toBeInstanceOf(QrImageError);
    expect((error as QrImageError).code).toBe('BAD_SCREEN');
  });

  it('refuses a PP_MFSUP that is not flags', () => {
    const error = thrown(() => pinpadScreenFromGix({ graphicSize: '03200240', mediaSupport: 'PNG', maxBytes: 1 }));
    expect((error as QrImageError).code).toBe('BAD_SCREEN');
  });
});
