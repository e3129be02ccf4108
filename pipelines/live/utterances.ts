import { merge, type Observable } from 'rxjs';
import type { Utterance } from '../../src/domain/frames.js';
import type { FrameLanes } from '../../operators/route-frames.js';
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
  lanes: Pick<FrameLanes, 'inbound$' | 'outbound$' | 'text$'>,
  report: ReportError,
  extra$: Observable<Utterance>[] = [],
): Observable<Utterance> {
  const branches = [lanes.text$.pipe(textUtterances(ctx.scheduler))];
  if (!ctx.services.stt) {
    // Text-only deployment: the first audio of either track is reported once.
    branches.push(audioUtterances(ctx, 'inbound', merge(lanes.inbound$, lanes.outbound$), report));
  } else {
    branches.push(audioUtterances(ctx, 'inbound', lanes.inbound$, report));
    if (ctx.spec.options.tracksBoth) branches.push(audioUtterances(ctx, 'outbound', lanes.outbound$, report));
  }
  return merge(...branches, ...extra$);
}
