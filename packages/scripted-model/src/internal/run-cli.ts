import { parseArgs } from 'node:util';
import { ScriptedModelError } from '../errors.js';
import { loadScript } from '../load-script.js';
import { type ScriptedModel, startScriptedModel } from '../start-scripted-model.js';

const USAGE =
  'usage: hankweave-scripted-model --script <script.json> [--port <n>] [--host <address>]\n';

/** Where the CLI writes: the base URL goes to `stdout` (one line), diagnostics to `stderr`. */
export interface CliOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** A running server (`model`), or the exit code when the CLI is done. */
export type CliOutcome = { model: ScriptedModel } | { exitCode: number };

/** Parses the arguments, starts the server and prints its URL. Never throws. */
export async function runCli(argv: string[], output: CliOutput): Promise<CliOutcome> {
  let values: { script?: string; port?: string; host?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        script: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    output.stderr.write(`${(error as Error).message}\n${USAGE}`);
    return { exitCode: 2 };
  }
  if (values.help === true) {
    output.stdout.write(USAGE);
    return { exitCode: 0 };
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (values.script === undefined || !Number.isInteger(port) || port < 0 || port > 65_535) {
    output.stderr.write(USAGE);
    return { exitCode: 2 };
  }
  try {
    const script = await loadScript(values.script);
    const model = await startScriptedModel({ script, port, host: values.host });
    output.stdout.write(`${model.url}\n`);
    return { model };
  } catch (error) {
    const text = ScriptedModelError.is(error) ? `${error.code}: ${error.message}` : String(error);
    output.stderr.write(`${text}\n`);
    return { exitCode: 1 };
  }
}
