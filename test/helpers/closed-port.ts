/**
 * A TCP port on 127.0.0.1 that nothing listens on, for a device that is off (a receipt printer,
 * a network PINPAD): port 1 (tcpmux), which no service of a test machine binds, so a connection
 * is refused at once, every time. A port taken from the kernel and closed again is not that: with
 * spec files running side by side, another file's server may be given the same port a moment
 * later, and the "printer that is off" answers.
 */
export const CLOSED_PORT = 1;
