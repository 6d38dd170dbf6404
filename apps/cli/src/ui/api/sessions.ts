import { relative } from 'node:path';
import type { SessionsWire } from '@hankweave/dashboard/api-types';
import { listExecutions } from '@hankweave/runtime';
import { asSessionsCliError } from '../../sessions/session-options.js';

/**
 * `GET /api/sessions`: the session registry of the base directory (as `hankweave sessions
 * --all` lists it), each linked to its execution id when the execution lives in the base directory.
 */
export async function sessionsOf(baseDir: string): Promise<SessionsWire> {
  let listed: Awaited<ReturnType<typeof listExecutions>>;
  try {
    listed = await listExecutions({ projectDir: baseDir });
  } catch (error) {
    throw asSessionsCliError(error);
  }
  return {
    sessions: listed.sessions.map((session) => {
      const inside = session.executionDir ? relative(baseDir, session.executionDir) : '';
      const executionId =
        inside !== '' && !inside.includes('/') && !inside.startsWith('..') ? inside : undefined;
      return {
        key: session.key,
        type: session.type,
        status: session.status,
        ...(session.pid !== null ? { pid: session.pid } : {}),
        startedAt: session.startedAt,
        ...(executionId ? { executionId } : {}),
        ...(session.parent ? { parent: session.parent } : {}),
      };
    }),
  };
}
