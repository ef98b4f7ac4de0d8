/**
 * A CPF with valid check digits that no one has used yet: random, so reruns and parallel spec
 * files never collide on a sandbox that refuses a second buyer with the same CPF.
 */
export function freshCpf(): string {
  let base: string;
  do base = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10)).join('');
  while (/^(\d)\1+$/.test(base));
  const digit = (digits: string): number => {
    const sum = [...digits].reduce((total, d, i) => total + Number(d) * (digits.length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  const first = digit(base);
  return `${base}${first}${digit(`${base}${first}`)}`;
}
