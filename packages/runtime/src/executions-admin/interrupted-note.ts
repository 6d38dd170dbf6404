/**
 * The start of the registry note of a session whose runtime was interrupted (Ctrl-C, SIGTERM, a
 * client's shutdown): a stop, not a fault. Seed 004's registry has only `killed` for a stopped
 * session, so the note is what tells the two apart.
 */
export const INTERRUPTED_NOTE_PREFIX = 'interrupted: ';
