/**
 * What the server said about itself (`/api/info`), shared through context: the base directory for
 * empty states and `write` for whether action buttons exist at all.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ServerInfo } from '../api/types.js';

export const ServerInfoContext = createContext<ServerInfo | undefined>(undefined);

/** The server's info, or undefined while it loads (actions stay hidden until it says `write`). */
export const useServerInfo = (): ServerInfo | undefined => useContext(ServerInfoContext);
