import { filter, merge, type Observable } from 'rxjs';
import type { AudioFrame, Frame, Utterance } from '../../src/domain/frames.js';
import { textUtterances } from '../../operators/utterances.js';
import type { PipelineContext } from '../types.js';
import { audioUtterances, type ReportError } from './audio.js';

/**
 * One transcript from everything the client sends: its own final transcript lines and the
 * transcription of its audio (inbound = caller; outbound = callee, transcribed only with
 * `tracks=both`), plus any extra lines (the honeypot's persona), in the order they become final.
 */
export function liveUtterances(
  ctx: PipelineContext,
  frames$: Observable<Frame>,
  report: ReportError,
  extra$: Observable<Utterance>[] = [],
): Observable<Utterance> {
  const audio = (track: AudioFrame['track']) =>
    frames$.pipe(filter((f): f is AudioFrame => f.kind === 'audio' && f.track === track));
  const branches = [frames$.pipe(textUtterances(ctx.scheduler))];
  if (!ctx.services.stt) {
    // Text-only deployment: one branch sees all audio so the client hears about it once.
    branches.push(
      audioUtterances(ctx, 'inbound', frames$.pipe(filter((f): f is AudioFrame => f.kind === 'audio')), report),
    );
  } else {
    branches.push(audioUtterances(ctx, 'inbound', audio('inbound'), report));
    if (ctx.spec.options.tracksBoth) branches.push(audioUtterances(ctx, 'outbound', audio('outbound'), report));
  }
  return merge(...branches, ...extra$);
}
