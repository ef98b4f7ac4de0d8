/**
 * The Luhn (mod 10) check of a card number: the simulator refuses test cards that fail it, and
 * the journal uses it to recognise a full PAN that must never be written to disk.
 */

/** True for a string of at least two digits whose Luhn sum is a multiple of 10. */
export function luhnValid(pan: string): boolean {
  if (!/^[0-9]{2,}$/.test(pan)) return false;
  let sum = 0;
  let double = false;
  for (let i = pan.length - 1; i >= 0; i--) {
    let digit = pan.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}
