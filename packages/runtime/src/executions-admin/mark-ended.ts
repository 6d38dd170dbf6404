import type { SessionEntry, SessionRegistry } from '@hankweave/sessions';

/** How {@link markEnded} closes a session. */
export interface EndMark {
  status: 'killed' | 'unknown_termination';
  note: string;
  at: Date;
  /** Only entries still recording this pid are changed (a resumed session has a new one). */
  pid?: number;
}

/**
 * Closes a session that is still `running`, and its running loop sessions with it, in one locked
 * registry update: status, `killed_at` for a kill, the note, `updated_at`. Entries that have
 * already ended (the runtime wrote its own ending first) are left as they are. Returns the keys
 * it changed.
 */
export async function markEnded(
  registry: SessionRegistry,
  key: string,
  mark: EndMark,
): Promise<string[]> {
  return registry.update((sessions) => {
    const changed: string[] = [];
    const keys = [key, ...Object.keys(sessions).filter((other) => sessions[other]?.parent === key)];
    for (const candidate of keys) {
      const entry = sessions[candidate];
      if (!entry || !stillRunning(entry, mark.pid)) continue;
      const at = mark.at.toISOString();
      sessions[candidate] = {
        ...entry,
        status: mark.status,
        ...(mark.status === 'killed' ? { killed_at: at } : {}),
        note: mark.note,
        updated_at: at,
      };
      changed.push(candidate);
    }
    return changed;
  });
}

const stillRunning = (entry: SessionEntry, pid: number | undefined): boolean =>
  entry.status === 'running' && (pid === undefined || entry.pid == null || entry.pid === pid);
