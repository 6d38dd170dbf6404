import { z } from 'zod';

const commandBase = { id: z.string().min(1) };
const optionalReason = z.strictObject({ reason: z.string().optional() }).optional();
/**
 * Our extension of `codon.skip` and `codon.forceStop`: with `codonId`, the command stops that codon
 * only if it is still the one running, so a confirmation given for one codon can never stop the
 * next. The original ignores the payload of `codon.skip`, so its other fields (and a `null`
 * payload) stay accepted.
 */
const expectedCodon = { codonId: z.string().min(1).optional() };
const autoRestart = { autoRestart: z.boolean().optional() };

/** The rollback targets of `rollback.toCodon`: a checkpoint type or the `start`/`end` aliases. */
export const ROLLBACK_CHECKPOINT_TYPES = [
  'start',
  'end',
  'rig-setup',
  'completed',
  'error',
  'skipped',
] as const;

/**
 * Every command a client may send (reference §3.2): `{id, type, data?}`. Payloads are strict so a
 * misspelt field is an error rather than silently ignored.
 */
export const clientCommandSchema = z.discriminatedUnion('type', [
  z.strictObject({
    ...commandBase,
    type: z.literal('codon.start'),
    data: z.strictObject({ codonId: z.string().min(1), skipPreCommands: z.boolean().optional() }),
  }),
  z.strictObject({ ...commandBase, type: z.literal('codon.next'), data: z.unknown().optional() }),
  z.strictObject({
    ...commandBase,
    type: z.literal('codon.skip'),
    data: z.looseObject(expectedCodon).nullable().optional(),
  }),
  z.strictObject({ ...commandBase, type: z.literal('codon.redo'), data: z.unknown().optional() }),
  z.strictObject({
    ...commandBase,
    type: z.literal('codon.forceStop'),
    data: z.strictObject({ reason: z.string().optional(), ...expectedCodon }).optional(),
  }),
  z.strictObject({ ...commandBase, type: z.literal('server.shutdown'), data: optionalReason }),
  z.strictObject({
    ...commandBase,
    type: z.literal('server.force_shutdown'),
    data: optionalReason,
  }),
  z.strictObject({
    ...commandBase,
    type: z.literal('checkpoint.list'),
    data: z.strictObject({ runId: z.string().optional() }).optional(),
  }),
  z.strictObject({
    ...commandBase,
    type: z.literal('rollback.toCheckpoint'),
    data: z.strictObject({ checkpointSha: z.string().min(4), ...autoRestart }),
  }),
  z.strictObject({
    ...commandBase,
    type: z.literal('rollback.toCodon'),
    data: z.strictObject({
      codonId: z.string().min(1),
      checkpointType: z.enum(ROLLBACK_CHECKPOINT_TYPES),
      ...autoRestart,
    }),
  }),
  z.strictObject({
    ...commandBase,
    type: z.literal('rollback.toLastSuccess'),
    data: z.strictObject(autoRestart).optional(),
  }),
  z.strictObject({ ...commandBase, type: z.literal('ping'), data: z.unknown().optional() }),
  z.strictObject({
    ...commandBase,
    type: z.literal('ping.broadcast'),
    data: z.unknown().optional(),
  }),
  z.strictObject({
    ...commandBase,
    type: z.literal('history.sync'),
    data: z.unknown().optional(),
  }),
]);
export type ClientCommand = z.infer<typeof clientCommandSchema>;
export type ClientCommandType = ClientCommand['type'];
export const CLIENT_COMMAND_TYPES = clientCommandSchema.options.map(
  (option) => option.shape.type.value,
) as ClientCommandType[];

/**
 * The commands a read-only client may send and that run during a rollback: those of reference
 * §3.1 that change nothing. `ping.broadcast` is not one of them (it reaches every client: the
 * original refuses it to read-only clients with `INSUFFICIENT_PERMISSIONS`). Unlike the original,
 * `server.shutdown` and `server.force_shutdown` are not either: a read-only client cannot stop a
 * server (ARCHITECTURE.md "Security by default").
 */
export const READ_ONLY_COMMAND_TYPES: readonly ClientCommandType[] = [
  'checkpoint.list',
  'ping',
  'history.sync',
];

export const CLIENT_MODES = ['readonly', 'readandwrite'] as const;

/** The first message of every connection (reference §3.1), plus our per-execution token. */
export const handshakeSchema = z.strictObject({
  id: z.string().optional(),
  type: z.literal('handshake'),
  data: z.strictObject({
    mode: z.enum(CLIENT_MODES),
    sendPreviousEvents: z.boolean().default(false),
    token: z.string().optional(),
  }),
});
export type Handshake = z.infer<typeof handshakeSchema>;

/** The server's reply to a handshake. `eventHistory` holds the last 50 journaled events. */
export const handshakeResponseSchema = z.looseObject({
  type: z.literal('handshake.response'),
  data: z.looseObject({
    clientId: z.string(),
    mode: z.enum(CLIENT_MODES),
    eventHistory: z.array(
      z.looseObject({ id: z.string(), type: z.string(), timestamp: z.string(), data: z.unknown() }),
    ),
    totalEvents: z.number().int().nonnegative(),
  }),
});
export type HandshakeResponse = z.infer<typeof handshakeResponseSchema>;
