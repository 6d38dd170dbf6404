/** Where `hankweave init` puts the sample data: apart from the hank, so editing a prompt or
 * hank.json never changes the data hash (and a later run resumes the same execution). */
export const SAMPLE_DATA_DIR = 'data';

/**
 * The files `hankweave init` writes: a two-codon hank (explore the data, then write a report in
 * the same session), its prompts, its data in `data/` (run with that folder as the data), and a
 * model script that runs it offline.
 */
export function sampleHankFiles(name: string, cli = 'hankweave'): Record<string, string> {
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    'hank.json': json({
      $schema: 'https://unpkg.com/@hankweave/types/schemas/hank.schema.json',
      meta: {
        name,
        version: '0.1.0',
        description: 'A sample hank: explore the data, then write a short report.',
      },
      globalSystemPromptText:
        'Work only inside <%AGENT_ROOT%>. The input data is read-only at <%DATA_DIR%>.',
      hank: [
        {
          id: 'explore',
          name: 'Explore the data',
          model: 'sonnet',
          continuationMode: 'fresh',
          promptFile: 'prompts/explore.md',
          checkpointedFiles: ['notes/**/*.md'],
        },
        {
          id: 'report',
          name: 'Write the report',
          model: 'sonnet',
          continuationMode: 'continue-previous',
          promptFile: 'prompts/report.md',
          checkpointedFiles: ['report.md'],
        },
      ],
    }),
    'prompts/explore.md': `---
name: explore
description: Look at the data and take notes.
---

Read the files in <%DATA_DIR%>. Write your notes to notes/observations.md: one bullet per
file, saying what it contains.
`,
    'prompts/report.md': `Using your notes, write report.md: a title line and at most three sentences about the data.
`,
    [`${SAMPLE_DATA_DIR}/fruit.csv`]:
      'fruit,colour,price\napple,red,0.40\nbanana,yellow,0.25\nfig,purple,0.90\n',
    [`${SAMPLE_DATA_DIR}/about.txt`]:
      'A tiny sample data set: three fruits with their colour and price.\n',
    'model-script.json': json({
      $schema: 'https://unpkg.com/@hankweave/scripted-model/schemas/script.schema.json',
      conversations: [
        {
          name: 'explore',
          match: { marker: 'Write your notes to notes/observations.md' },
          turns: [
            {
              content: [
                { thinking: 'Two data files. List them first.' },
                {
                  bash: { command: 'ls read_only_data_source', description: 'List the data' },
                },
              ],
              usage: { inputTokens: 1800, outputTokens: 40 },
            },
            {
              content: [
                {
                  write: {
                    path: 'notes/observations.md',
                    content:
                      '# Observations\n\n- fruit.csv: three fruits with colour and price.\n- about.txt: one line describing the data set.\n',
                  },
                },
              ],
              usage: { inputTokens: 2000, outputTokens: 90 },
            },
            {
              content: [{ text: 'My notes are in notes/observations.md.' }],
              usage: { inputTokens: 2100, outputTokens: 15 },
            },
          ],
        },
        {
          name: 'report',
          match: { marker: 'write report.md' },
          turns: [
            {
              content: [
                {
                  write: {
                    path: 'report.md',
                    content:
                      '# Three fruits\n\nThe data lists apples, bananas and figs.\nFigs are the most expensive.\n',
                  },
                },
              ],
              usage: { inputTokens: 2300, outputTokens: 60 },
            },
            {
              content: [{ text: 'report.md is written.' }],
              usage: { inputTokens: 2400, outputTokens: 8 },
            },
          ],
        },
      ],
    }),
    'README.md': `# ${name}

A sample [hankweave](https://www.npmjs.com/package/hankweave) hank: two codons (coding-agent
sessions). \`explore\` reads the data and takes notes; \`report\` continues the same session and
writes \`report.md\`.

- \`hank.json\`: the program (codons, prompts, tracked files).
- \`prompts/\`: the prompts; \`<%DATA_DIR%>\` is where the agent sees the data.
- \`data/\`: the sample data, passed as the data (the agent sees it read-only). It lives apart
  from the prompts, so editing a prompt or hank.json keeps the data hash and the next run resumes
  the same execution.
- \`model-script.json\`: scripted model answers, for a dry run without network or API key.

Dry run, offline (the real Claude Code agent talks to a local scripted model):

\`\`\`sh
${cli} . data --scripted-model model-script.json
\`\`\`

Real run (needs \`ANTHROPIC_API_KEY\`):

\`\`\`sh
${cli} . data
\`\`\`

Then: \`${cli} status\`, \`${cli} checkpoints\`, \`${cli} diff explore report\`,
\`${cli} rollback explore\` (run them in this directory, or pass \`-e <execution>\`).
`,
  };
}
