/**
 * The two functions of snappyjs (a pure-JavaScript Snappy, MIT; the package ships no types) the
 * remote-write encoder uses: Snappy's block format, which Prometheus remote write asks for (not
 * the framed stream format).
 */
declare module 'snappyjs' {
  export function compress<T extends Uint8Array | ArrayBuffer>(input: T): T;
  export function uncompress<T extends Uint8Array | ArrayBuffer>(input: T, maxLength?: number): T;
  const snappy: { compress: typeof compress; uncompress: typeof uncompress };
  export default snappy;
}
