import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StoredSession } from '../../src/domain/session.js';
import { PERSONAS } from '../../src/honeypot/personas.js';
import { hashKey } from '../../src/server/auth.js';
import { kamailioAvailable, startSipEdge, type SipEdge } from '../fixtures/phone/proxy.js';
import { baresipAvailable, startSoftphone, type Softphone } from '../fixtures/phone/softphone.js';
import { startSipHarness, until, type SipHarness } from '../fixtures/sipp/harness.js';
import { freePort } from '../reliability/helpers/node-process.js';

/** A free UDP port on 127.0.0.1. */
function freeUdpPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = dgram.createSocket('udp4');
    s.bind(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Seconds and RMS level of a 16-bit mono WAV (sox). */
function wavStats(file: string): { seconds: number; rms: number } {
  const out = spawnSync('sox', [file, '-n', 'stat'], { encoding: 'utf8' }).stderr;
  const num = (label: string) => {
    const v = Number(new RegExp(`${label}:\\s+([\\d.e+-]+)`).exec(out)?.[1]);
    if (!Number.isFinite(v)) throw new Error(`sox stat of ${file} (${fs.statSync(file).size} bytes): ${out}`);
    return v;
  };
  return { seconds: num('Length \\(seconds\\)'), rms: num('RMS\\s+amplitude') };
}

/** The caller's side: two short lines spoken by a Debian voice, then silence the honeypot must end. */
function callerSpeech(dir: string): string {
  const parts = ['Hello, this is the tax office calling about your account.', 'You must pay today with gift cards.'];
  const files = parts.map((text, i) => {
    const raw = path.join(dir, `line-${i}.wav`);
    execFileSync('flite', ['-voice', 'rms', '-t', text, '-o', raw]);
    return raw;
  });
  const out = path.join(dir, 'caller.wav');
  // 6 s for the greeting (a caller who talks over it cuts it short), line, 4 s pause, line, then 150 s of
  // silence: the honeypot's silence rule hangs up first.
  execFileSync('sox', [files[0]!, '-r', '8000', '-c', '1', '-b', '16', path.join(dir, 'a.wav'), 'pad', '6', '4']);
  execFileSync('sox', [files[1]!, '-r', '8000', '-c', '1', '-b', '16', path.join(dir, 'b.wav'), 'pad', '0', '150']);
  execFileSync('sox', [path.join(dir, 'a.wav'), path.join(dir, 'b.wav'), out]);
  return out;
}

/**
 * A real SIP phone (baresip) calls the honeypot through a real carrier edge (Kamailio) that adds the
 * service key, as in service; checked from the phone's own recordings and the stored session.
 */
describe('sip honeypot with a real phone behind a carrier edge (baresip → Kamailio → honeypot)', function () {
  this.timeout(300_000);
  let h: SipHarness;
  let edge: SipEdge;
  let keyId: string;
  let dir: string;
  let speech: string;
  const phones: Softphone[] = [];
  const silence = process.env.VOICE_HONEYPOT_SILENCE_MS;

  before(async function () {
    if (!baresipAvailable() || !kamailioAvailable()) this.skip(); // CI installs baresip-core and kamailio
    process.env.VOICE_HONEYPOT_SILENCE_MS = '2500';
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-phone-test-'));
    speech = callerSpeech(dir);
    h = await startSipHarness({ env: { VOICE_STT: 'sphinx' } });
    keyId = (await h.server.services.store.keys.findByHash(hashKey(h.server.key)))!.id;
    edge = await startSipEdge({
      port: await freeUdpPort(),
      honeypotPort: h.sip.port,
      serviceKey: h.server.key,
      persona: 'walter',
    });
  });
  after(async () => {
    if (silence === undefined) delete process.env.VOICE_HONEYPOT_SILENCE_MS;
    else process.env.VOICE_HONEYPOT_SILENCE_MS = silence;
    for (const p of phones) await p.close();
    await edge?.close();
    await h?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function phone(codec: string, file = speech): Promise<Softphone> {
    const base = 31000 + 2 * Math.floor(Math.random() * 4000);
    const p = await startSoftphone({
      sipPort: await freeUdpPort(),
      ctrlPort: await freePort(),
      rtpPorts: [base, base + 20],
      speech: file,
      codec,
    });
    phones.push(p);
    return p;
  }

  const dial = (p: Softphone, user: string) => p.command('dial', `sip:${user}@127.0.0.1:${edge.port}`);

  async function storedCall(): Promise<StoredSession> {
    let rec: StoredSession | undefined;
    await until(
      async () => {
        const rows = await h.server.services.store.sessions.listByKey(keyId, 50);
        rec = rows.find((r) => r.protocol === 'sip' && r.state === 'ended' && r.persona_id === 'walter');
        return rec !== undefined;
      },
      60_000,
      'the session stored',
    );
    return rec!;
  }

  it('PCMU: the persona greets in speech, answers each line, takes a key press, and hangs up with BYE on silence', async () => {
    const p = await phone('PCMU');
    await dial(p, 'report');
    await p.waitFor('CALL_ESTABLISHED');
    await p.waitLog(/Set audio decoder: PCMU 8000Hz/);
    await new Promise((r) => setTimeout(r, 3000));
    await p.command('sndcode', '7');
    const closed = await p.waitFor('CALL_CLOSED', 200_000);
    // The honeypot ended it: the phone's own file (150 s of silence at its end) had not run out.
    if (/end of file/.test(closed.param ?? '')) {
      const r = await storedCall();
      throw new Error(`phone hung up first; transcript:\n${r.transcript}`);
    }
    const ended = h.server.logs.find((l) => l.msg === 'call ended' && l.component === 'sip');
    expect(ended?.why, JSON.stringify(ended)).to.not.equal('caller_bye');

    const rec = await storedCall();
    const walter = PERSONAS.find((x) => x.id === 'walter')!;
    expect(rec).to.include({ kind: 'honeypot', protocol: 'sip', from: '+12025550142', persona_id: 'walter' });
    expect(rec.intel.dtmf ?? '').to.contain('7');
    const lines = rec.transcript.split('\n');
    // The greeting is the persona's first line; stored as far as it was played (a caller who talks over the
    // persona cuts it short, marked `…`), and a persona line joins the transcript once played, so the
    // caller's first words may come before it.
    const greeted = lines.find((l) => l.startsWith(`${walter.name}:`)) ?? '';
    expect(`${walter.name}: ${walter.greeting}`.startsWith(greeted.replace(/…$/, '')), rec.transcript).to.equal(true);
    expect(greeted.length, rec.transcript).to.be.greaterThan(`${walter.name}: Yeah, hello? Walter`.length);
    // Every line the caller was heard saying has a persona line after it.
    const callerAt = lines.map((l, i) => (l.startsWith('caller:') ? i : -1)).filter((i) => i >= 0);
    expect(callerAt.length, rec.transcript).to.be.at.least(1);
    for (const i of callerAt)
      expect(
        lines.slice(i + 1).some((l) => l.startsWith(`${walter.name}:`)),
        rec.transcript,
      ).to.equal(true);
    // Filed or not, the record says so and the number lookup agrees.
    expect(rec.reported).to.be.a('boolean');
    const number = (await (
      await fetch(`${h.server.url}/voice/numbers/%2B12025550142`, { headers: { 'X-Auth': h.server.key } })
    ).json()) as { reported: boolean };
    expect(number.reported).to.equal(rec.reported);

    // What the phone heard is speech, loud enough, and the greeting's words are in it.
    const files = await p.finishedRecordings();
    const heard = wavStats(files.heard);
    expect(heard.seconds).to.be.greaterThan(4);
    expect(heard.rms).to.be.greaterThan(0.01);
    // Heard by the embedded recogniser as a scan hears a recording (the node's own PocketSphinx and call model).
    const scanned = await fetch(`${h.server.url}/voice/scan`, {
      method: 'POST',
      headers: { 'X-Auth': h.server.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ audio_base64: fs.readFileSync(files.heard).toString('base64'), encoding: 'wav' }),
    });
    expect(scanned.status).to.equal(200);
    const words = ((await scanned.json()) as { transcript: string }).transcript.toLowerCase();
    const greeting = walter.greeting!.toLowerCase().match(/[a-z]+/g)!;
    expect(
      greeting.filter((w) => w.length > 3 && words.includes(w)),
      `recognised: "${words}"`,
    ).to.not.be.empty;
  });

  it('PCMA: the honeypot answers in A-law', async () => {
    const p = await phone('PCMA');
    await dial(p, 'plain');
    await p.waitFor('CALL_ESTABLISHED');
    await p.waitLog(/Set audio decoder: PCMA 8000Hz/);
    await p.waitLog(/incoming rtp for 'audio' established/); // the persona's greeting is arriving
    await new Promise((r) => setTimeout(r, 3000));
    await p.command('hangup');
    await p.waitFor('CALL_CLOSED');
    const files = await p.finishedRecordings();
    expect(wavStats(files.heard).rms).to.be.greaterThan(0.01);
  });

  it('refuses a wrong service key (403) and an offer without G.711 (488)', async () => {
    const wrong = await phone('PCMU');
    await dial(wrong, 'wrongkey');
    expect((await wrong.waitFor('CALL_CLOSED')).param).to.match(/403/);
    const l16 = await phone('L16');
    await dial(l16, 'plain');
    expect((await l16.waitFor('CALL_CLOSED')).param).to.match(/488/);
  });
});
