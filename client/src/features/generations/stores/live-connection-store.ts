import { create } from 'zustand';

/**
 * Whether live updates are reaching this page. 'reconnecting' runs from the moment an open socket
 * drops until it is back and the list has been read again: updates sent meanwhile were missed, so
 * what the page shows may be behind until then.
 */
export type LiveConnection = 'off' | 'live' | 'reconnecting';

interface LiveConnectionStore {
  connection: LiveConnection;
  set: (connection: LiveConnection) => void;
}

export const useLiveConnectionStore = create<LiveConnectionStore>()((set) => ({
  connection: 'off',
  set: (connection) => set({ connection }),
}));
