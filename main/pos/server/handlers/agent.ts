/** agent.status: everything a POS (or a technician on the phone) checks first. */
import type { Handlers } from '../dispatch.js';
import { apiHealthView, diskView, pinpadLinkView, printerView } from '../views.js';

export const agentHandlers: Handlers<'agent.status'> = {
  'agent.status': (_params, { agent, hub, session }) => ({
    pinpads: agent.pinpads.list().map((entry) => hub.pinpadViewFor(session, entry)),
    pinpad_link: agent.pinpadLink === undefined ? null : pinpadLinkView(agent.pinpadLink.status),
    printers: [...agent.printers].map(([name, { device }]) => printerView(name, device)),
    api: apiHealthView(agent.apiHealth.snapshot()),
    disk: diskView(agent.disk?.status),
    // POS connections only: the window (an operator session) is not a POS.
    clients_connected: [...hub.sessions].filter((session) => session.client !== undefined && session.open).length,
  }),
};
