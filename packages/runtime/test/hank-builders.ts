// Hank and script builders shared by the runtime's end-to-end tests on the scripted model: a codon
// whose prompt carries a marker, and the conversation that answers that marker.

/** A fresh sonnet codon whose prompt carries `TASK_<ID>`, tracking every `.txt` file. */
export const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Codon ${id}`,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: `TASK_${id.toUpperCase()}: do ${id}`,
  checkpointedFiles: ['**/*.txt'],
  ...extra,
});

/** The conversation answering codon `id`: one turn of `content` (with `turn`'s extras), then done. */
export const answers = (id: string, content: unknown[], turn: Record<string, unknown> = {}) => ({
  match: { marker: `TASK_${id.toUpperCase()}` },
  turns: [
    { content, usage: { inputTokens: 100, outputTokens: 20 }, ...turn },
    { content: [{ text: 'Done.' }], usage: { inputTokens: 120, outputTokens: 5 } },
  ],
});

/** Codon `id` writes `path` (by default `{id}.txt` holding its id). */
export const writes = (
  id: string,
  path = `${id}.txt`,
  content = `${id}\n`,
  turn: Record<string, unknown> = {},
) => answers(id, [{ write: { path, content } }], turn);

/** A codon asked for `<id>.txt`, tracking the top level's `.txt` files. */
export const writerCodon = (id: string, extra: Record<string, unknown> = {}) =>
  codon(id, {
    promptText: `TASK_${id.toUpperCase()}: write ${id}.txt`,
    checkpointedFiles: ['*.txt'],
    ...extra,
  });

/** Codon `id` writes `<id>.txt` holding `<id> done`; `last` replaces its closing turn. */
export const writerConversation = (id: string, last?: Record<string, unknown>) => {
  const conversation = writes(id, `${id}.txt`, `${id} done\n`);
  return last ? { ...conversation, turns: [conversation.turns[0], last] } : conversation;
};
