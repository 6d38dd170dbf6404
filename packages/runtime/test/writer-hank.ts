// The small hanks of the end-to-end tests: codons whose prompt carries the marker `TASK_<ID>`
// that the scripted model matches, and that each write `<id>.txt` (tracked as `*.txt`).

/** A codon asking for `<id>.txt`; `extra` overrides or adds fields. */
export const writerCodon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Codon ${id}`,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: `TASK_${id.toUpperCase()}: write ${id}.txt`,
  checkpointedFiles: ['*.txt'],
  ...extra,
});

/** What the scripted model does for a writer codon: writes `<id>.txt`, then `last`. */
export const writerConversation = (
  id: string,
  last: Record<string, unknown> = {
    content: [{ text: 'Done.' }],
    usage: { inputTokens: 120, outputTokens: 5 },
  },
) => ({
  match: { marker: `TASK_${id.toUpperCase()}` },
  turns: [
    {
      content: [{ write: { path: `${id}.txt`, content: `${id} done\n` } }],
      usage: { inputTokens: 100, outputTokens: 20 },
    },
    last,
  ],
});
