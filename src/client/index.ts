/**
 * The client kit: a typed client for the HTTP API (`VoiceClient`) and the live sockets (`LiveSession`).
 *
 *   const client = new VoiceClient({ url: 'https://voice.example.com', key });
 *   const call = await client.openFilter({ from: '+12025550123', report: true });
 *   call.sendText('This is the IRS, there is a warrant for your arrest.');
 *   for await (const e of call) if (e.type === 'verdict') console.log(e.verdict.level);
 */
export { VoiceClient, type VoiceClientOptions } from './voice-client.js';
export { LiveSession, type Closed, type TextOptions } from './live.js';
export { VoiceApiError } from './errors.js';
export * from './types.js';
