// The hankweave process: guards, the command, then exit once the output has flushed.
import { hasErrno } from '@hankweave/durable-io';
import { installProcessGuards, main } from './main.js';
import { createTerminal } from './output/terminal.js';

const terminal = createTerminal();
installProcessGuards(terminal);
// `hankweave events | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error) => {
  if (hasErrno(error, 'EPIPE')) process.exit(0);
});
const code = await main(process.argv, terminal);
// Exit once stdout and stderr have flushed: runtime timers or sockets must not keep us alive.
await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
process.exit(code);
