import { Eta, type TemplateFunction } from 'eta';
import { SentinelError } from '../errors.js';

// One instance, as in the original: raw prompts (no HTML escaping), whitespace kept.
const eta = new Eta({ autoEscape: false, rmWhitespace: false, useWith: false });

/**
 * A prompt template compiled on first use. Syntax errors throw `SENTINEL_TEMPLATE_SYNTAX` (the
 * sentinel is unloaded); errors while rendering throw `SENTINEL_TEMPLATE_RENDER_FAILED` (that
 * trigger is skipped). Templates are Eta: they run JavaScript, like the hank that names them.
 */
export class PromptTemplate {
  private compiled: TemplateFunction | undefined;

  constructor(
    private readonly source: string,
    private readonly label: string,
  ) {}

  render(data: object): string {
    if (!this.compiled) {
      try {
        this.compiled = eta.compile(this.source);
      } catch (cause) {
        throw new SentinelError(
          'SENTINEL_TEMPLATE_SYNTAX',
          `The ${this.label} template has a syntax error: ${firstLine(cause)}`,
          { cause, details: { template: this.label } },
        );
      }
    }
    try {
      return this.compiled.call(eta, data);
    } catch (cause) {
      throw new SentinelError(
        'SENTINEL_TEMPLATE_RENDER_FAILED',
        `The ${this.label} template failed to render: ${firstLine(cause)}`,
        { cause, details: { template: this.label } },
      );
    }
  }
}

// Eta's syntax errors show the template's lines around the problem: the message keeps only the
// first line (what and where), never the template's text, which may be any file a hank names.
function firstLine(cause: unknown): string {
  const text = (cause instanceof Error ? cause.message : String(cause)).split('\n')[0] ?? '';
  return text.replace(/:\s*$/, '').slice(0, 200);
}
