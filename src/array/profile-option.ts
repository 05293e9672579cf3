// Adapts compute's `profile` / `onProfile` options (and an open dashboard) to the scheduler's
// task trace: a recorder while it runs, then the report file, the callback and the live feed.

import { liveListening } from '../diagnostics/live-bus.ts';
import { LiveFeed } from '../diagnostics/live-feed.ts';
import { postToEnvDashboard } from '../diagnostics/live-post.ts';
import { type Profile, ProfileRecorder } from '../diagnostics/profile.ts';
import { writeProfileHtml } from '../diagnostics/profile-html.ts';
import { MissingPackageError, ValueError } from '../errors.ts';
import type { Layer } from '../graph/layer.ts';
import { runnableCount, type TaskTable } from '../graph/materialize.ts';
import { renderSvg } from '../graph/render-svg.ts';
import { layersToDot } from '../graph/visualize.ts';
import type { Executor } from '../workers/types.ts';

/** compute's profiling options. */
export interface ProfileOptions {
  profile?: boolean | string | undefined;
  onProfile?: ((profile: Profile) => void) | undefined;
}

/** One compute's recording: pass `recorder` as the run's trace, then `end` or `fail`. */
export interface ProfileSession {
  readonly recorder: ProfileRecorder;
  /** The run succeeded: write the report, call onProfile, tell the dashboard. */
  end(): Promise<void>;
  /**
   * The run failed with `e`: the report and onProfile still get the tasks that ran and the
   * error (`Profile.error`); the dashboard shows it with its task key. Never rejects.
   */
  fail(e: unknown): Promise<void>;
}

/** The picture of the graph for a report, or why there is none. */
async function graphPicture(layers: readonly Layer[]): Promise<[string | undefined, string]> {
  try {
    return [await renderSvg(layersToDot(layers), 'compute'), ''];
  } catch (e) {
    if (e instanceof MissingPackageError) return [undefined, e.message];
    throw e;
  }
}

/**
 * A recording for a compute of `layers` (as run, their task table `table`) on `executor`, or
 * undefined when neither the options nor a dashboard asks for one.
 * @example
 * const session = profileSession(opts, fused, table, executor);
 */
export function profileSession(
  opts: ProfileOptions,
  layers: readonly Layer[],
  table: TaskTable,
  executor: Executor,
): ProfileSession | undefined {
  const wanted = (opts.profile !== undefined && opts.profile !== false) || opts.onProfile;
  postToEnvDashboard();
  const live = liveListening();
  if (!wanted && !live) return undefined;
  const recorder = new ProfileRecorder(executor.name, executor.concurrency, table);
  const feed = live ? new LiveFeed(recorder, runnableCount(table)) : undefined;
  /** Write the report and call onProfile (a throw: ValueError naming the callback). */
  const deliver = async (): Promise<void> => {
    const profile = recorder.profile();
    if (typeof opts.profile === 'string') {
      const [svg, note] = await graphPicture(layers);
      writeProfileHtml(opts.profile, profile, svg, note);
    }
    try {
      opts.onProfile?.(profile);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new ValueError(`compute: the onProfile callback threw: ${why}`, { cause: e });
    }
  };
  return {
    recorder,
    async end() {
      recorder.end();
      feed?.end();
      if (wanted) await deliver();
    },
    async fail(e) {
      recorder.fail(e);
      feed?.fail(e);
      if (!wanted) return;
      try {
        await deliver();
      } catch {
        // the run's own error is the one the compute rejects with
      }
    },
  };
}
