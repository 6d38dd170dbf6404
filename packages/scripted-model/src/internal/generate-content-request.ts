import { z } from 'zod';
import { appendBlocks, type MessagesRequest } from './request-view.js';

// Loose like the other views: generationConfig, safetySettings, cachedContent, … are ignored.
// Field names are the camelCase ones the SDKs send.
const partSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  functionCall: z
    .looseObject({
      id: z.string().optional(),
      name: z.string().optional(),
      args: z.record(z.string(), z.unknown()).nullish(),
    })
    .optional(),
  functionResponse: z
    .looseObject({
      id: z.string().optional(),
      name: z.string().optional(),
      response: z.record(z.string(), z.unknown()).nullish(),
    })
    .optional(),
});
const contentSchema = z.looseObject({
  role: z.string().optional(),
  parts: z.array(partSchema).optional(),
});

/** The part of a generateContent request body the server reads (the model is in the path). */
export const generateContentRequestSchema = z.looseObject({
  contents: z.array(contentSchema),
  systemInstruction: z.union([z.string(), contentSchema]).optional(),
  tools: z
    .array(
      z.looseObject({
        functionDeclarations: z.array(z.looseObject({ name: z.string() })).optional(),
      }),
    )
    .optional(),
  toolConfig: z
    .looseObject({
      functionCallingConfig: z
        .looseObject({
          mode: z.string().optional(),
          allowedFunctionNames: z.array(z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
});
/** A parsed generateContent request body. */
export type GenerateContentRequest = z.infer<typeof generateContentRequestSchema>;
type Part = z.infer<typeof partSchema>;
type Block = Record<string, unknown> & { type: string };

const METHOD = /\/models\/([^/]+):(streamGenerateContent|generateContent)$/;

/**
 * The model and streaming mode named by a generateContent path
 * (`…/models/gemini-3-pro-preview:streamGenerateContent`); undefined for any other path.
 */
export function generateContentTarget(
  pathname: string,
): { model: string; stream: boolean } | undefined {
  const match = METHOD.exec(pathname);
  if (match?.[1] === undefined) return undefined;
  return { model: decodeURIComponent(match[1]), stream: match[2] === 'streamGenerateContent' };
}

// A function response is an object; Pi and the SDKs put the tool's text under `output` (or
// `error` when the tool failed). Anything else is read as its JSON.
function responseText(response: Record<string, unknown> | null | undefined): string {
  const value = response?.output ?? response?.error ?? response?.content;
  if (typeof value === 'string') return value;
  return response == null ? '' : JSON.stringify(response);
}

function blockOf(part: Part, index: number): Block | undefined {
  const call = part.functionCall;
  if (call !== undefined) {
    const id = call.id ?? `${call.name ?? ''}#${index}`;
    return { type: 'tool_use', id, name: call.name ?? '', input: call.args ?? {} };
  }
  const result = part.functionResponse;
  if (result !== undefined) {
    // Gemini matches results to calls by name and order; the id is optional.
    const id = result.id ?? result.name ?? '';
    return { type: 'tool_result', tool_use_id: id, content: responseText(result.response) };
  }
  if (part.text === undefined) return undefined; // inline data, files: nothing the script reads
  return part.thought === true
    ? { type: 'thinking', thinking: part.text }
    : { type: 'text', text: part.text };
}

function toolChoiceOf(request: GenerateContentRequest) {
  const config = request.toolConfig?.functionCallingConfig;
  if (config?.mode !== 'ANY') return undefined;
  const only = config.allowedFunctionNames;
  return only?.length === 1 ? { type: 'tool', name: only[0] } : { type: 'any' };
}

/**
 * The request seen as a Messages API request, so that conversations, markers, instances, turns
 * and `when` are decided by the same code as for the other APIs: `systemInstruction` is the
 * system text, `model` contents are assistant messages, `user` contents (text and
 * `functionResponse` parts, the tool results) user messages; consecutive contents of one role
 * form one message.
 */
export function generateContentToMessagesView(
  request: GenerateContentRequest,
  target: { model: string; stream: boolean },
): MessagesRequest {
  const messages: MessagesRequest['messages'] = [];
  for (const content of request.contents) {
    const blocks = (content.parts ?? []).flatMap((part, index) => blockOf(part, index) ?? []);
    appendBlocks(messages, content.role === 'model' ? 'assistant' : 'user', blocks);
  }
  const instruction = request.systemInstruction;
  const system =
    typeof instruction === 'string'
      ? instruction
      : (instruction?.parts ?? []).flatMap((part) => part.text ?? []).join('\n');
  const toolChoice = toolChoiceOf(request);
  return {
    model: target.model,
    messages,
    ...(system === '' ? {} : { system }),
    stream: target.stream,
    tools: (request.tools ?? []).flatMap((tool) =>
      (tool.functionDeclarations ?? []).map((declaration) => ({ name: declaration.name })),
    ),
    ...(toolChoice === undefined ? {} : { tool_choice: toolChoice }),
  };
}
