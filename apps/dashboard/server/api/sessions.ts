import { relative } from 'node:path';
import { sessionsErrorHint } from '@hankweave/inspection';
import { listExecutions } from '@hankweave/runtime';
import { HankweaveError } from '@hankweave/types';
import type { SessionsWire } from '../../src/api/types.js';
import { HttpError } from '../http/http-error.js';

/**
 * `GET /api/sessions`: the session registry of the base directory (as `hankweave sessions
 * --all` lists it), each linked to its execution id when the execution lives in the base directory.
 */
export async function sessionsOf(baseDir: string): Promise<SessionsWire> {
  let listed: Awaited<ReturnType<typeof listExecutions>>;
  try {
    listed = await listExecutions({ projectDir: baseDir });
  } catch (error) {
    // A registry that cannot be read is the person's to fix: say how (as `hankweave sessions` does).
    const hint = sessionsErrorHint(error);
    if (hint !== undefined && HankweaveError.is(error))
      throw HttpError.passing(409, error.code, error.message, hint);
    throw error;
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
