import type { HankweaveEvent } from '@hankweave/types';

// Its own file, with types from @hankweave/types only: the client entry reads it, and that entry
// must load nothing of the runtime (the Biome override for the client files enforces it).

/** A message the server sends: an event, or the handshake's reply. */
export type ServerMessage =
  | HankweaveEvent
  | {
      id: string;
      type: 'handshake.response';
      timestamp: string;
      data: {
        clientId: string;
        mode: 'readonly' | 'readandwrite';
        eventHistory: HankweaveEvent[];
        totalEvents: number;
      };
    };
