/**
 * The window's only bridge to the shell (sandboxed preload, CommonJS as sandboxed preloads must
 * be): the app's version and platform, and the start-on-login switch. Nothing else of Node or
 * Electron reaches the page; payments, PINPADs and settings go through the agent's own API.
 */
import electron = require('electron');

const { contextBridge, ipcRenderer } = electron;

contextBridge.exposeInMainWorld('pinbridgeShell', {
  info: (): Promise<unknown> => ipcRenderer.invoke('pinbridge:info'),
  setStartOnLogin: (enabled: boolean): Promise<unknown> =>
    ipcRenderer.invoke('pinbridge:set-start-on-login', enabled === true),
});
