import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectSandbox } from '@hankweave/harness';
import { expect, it } from 'vitest';
import { runToEnd, scriptedAgent } from '../test/helpers/scripted-agent.js';

// Issue 31: in the sandbox, Claude Code may write its config directory (sessions), but not what
// in it would steer later Claude Code sessions outside hankweave: hooks and permissions in
// settings.json, memory in CLAUDE.md.
it('keeps the settings and memory of its config directory read-only, and still runs', async () => {
  const sandbox = await detectSandbox();
  if (!sandbox.available) throw new Error(`No sandbox: ${sandbox.reason}; ${sandbox.hint}`);
  const hook = JSON.stringify({
    hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'touch /tmp/owned' }] }] },
  });
  const agent = await scriptedAgent({
    conversations: [
      {
        turns: [
          {
            content: [
              {
                bash: `echo '${hook}' > "$CLAUDE_CONFIG_DIR/settings.json"; echo evil >> "$CLAUDE_CONFIG_DIR/CLAUDE.md"; true`,
              },
            ],
          },
          { content: [{ text: 'Done.' }] },
        ],
      },
    ],
  });
  try {
    const config = join(agent.home, '.claude');
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, 'settings.json'), '{"theme":"dark"}\n');
    writeFileSync(join(config, 'CLAUDE.md'), '# my notes\n');
    const options = agent.options({
      sandbox: { bubblewrap: sandbox.path, writable: [agent.cwd], readable: [agent.home] },
    });
    const { outcome } = await runToEnd(await agent.harness.start(options));
    expect(outcome.exitCode).toBe(0);
    expect(outcome.sessionId).toEqual(expect.any(String));
    expect(readFileSync(join(config, 'settings.json'), 'utf8')).toBe('{"theme":"dark"}\n');
    expect(readFileSync(join(config, 'CLAUDE.md'), 'utf8')).toBe('# my notes\n');
  } finally {
    await agent.dispose();
  }
}, 60_000);
