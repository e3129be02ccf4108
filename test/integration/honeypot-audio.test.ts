/*
 * One short scam call to the honeypot over audio: the scammer's lines spoken by flite through a
 * telephone channel, paced 20 ms mu-law frames, recognised on the node by PocketSphinx, answered by
 * eSpeak. Asserts only what holds however loaded the machine is: the persona answered the caller's
 * speech at least once, in audio, and the session was stored.
 */
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { PERSONAS } from '../../src/honeypot/personas.js';
import { detectSphinx } from '../../src/providers/stt/sphinx.js';
import { callOverAudio } from '../../bench/honeypot-sim/audio.js';
import { SCAMS } from '../../bench/honeypot-sim/scams.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

function hasFlite(): boolean {
  try {
    execFileSync('flite', ['-lv']);
    return true;
  } catch {
    return false;
  }
}

describe('honeypot over audio (flite caller, PocketSphinx on the node)', function () {
  this.timeout(300_000);
  let server: TestServer;
  const prevSilence = process.env.VOICE_HONEYPOT_SILENCE_MS;

  before(async function () {
    if (!detectSphinx() || !hasFlite()) this.skip(); // Debian pocketsphinx, pocketsphinx-en-us, flite
    // A loaded machine can hold the caller's words in the recogniser past the 8 s silence rule.
    process.env.VOICE_HONEYPOT_SILENCE_MS = '120000';
    server = await startTestServer({ VOICE_STT: 'sphinx', VOICE_TTS: 'espeak' });
    // The speech worker starts on first use; on a loaded machine that can outlast the greeting's
    // synthesis deadline, which ends a honeypot session by design. Start it before the call.
    const p = PERSONAS.find((x) => x.id === 'walter')!;
    for (let i = 0; i < 3; i++) {
      try {
        await server.services.tts!.synthesize('Hello.', p.tts.espeak, new AbortController().signal, p.tts);
        break;
      } catch {
        // timed out while the worker started: try again
      }
    }
  });
  after(async () => {
    await server?.close();
    if (prevSilence === undefined) delete process.env.VOICE_HONEYPOT_SILENCE_MS;
    else process.env.VOICE_HONEYPOT_SILENCE_MS = prevSilence;
  });

  it('answers a spoken caller in audio and stores the session', async () => {
    const persona = PERSONAS.find((p) => p.id === 'walter')!;
    const r = await callOverAudio(server, persona, SCAMS[0]!, {
      mode: 'audio',
      maxTurns: 2,
      hear: 'text',
      voice: 'rms',
      answerTimeoutMs: 240_000,
    });
    // The greeting, then at least one reply to the caller's speech.
    expect(r.personaLines, `${r.why} ${r.errors.join('; ')}`).to.be.at.least(2);
    expect(r.minutes).to.be.greaterThan(0);
    const res = await fetch(`${server.url}/voice/sessions/${r.sessionId!}`, { headers: { 'X-Auth': server.key } });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { session: Record<string, unknown> };
    expect(body.session).to.include({ kind: 'honeypot', persona_id: 'walter' });
    expect(String(body.session.transcript)).to.match(/caller: \S/);
  });
});
