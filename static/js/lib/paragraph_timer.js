/*
 * The time a worker spends on a paragraph, counted by the server: it adds up the page's
 * heartbeats (annotation/services/session_time.py). Between them the page counts on while it is
 * visible, and a hidden page stops counting (and sends no heartbeats).
 *
 *   const timer = paragraphTimer(apiBase, sessionId, seconds, onTick(seconds));
 *   timer.hold() -> Promise (before submitting: no heartbeat may reach a finished session);
 *   timer.release() (the submit failed: go on); timer.stop() (the paragraph is finished)
 */
import { call } from "./api.js";

export function paragraphTimer(base, sessionId, seconds, onTick) {
  let known = seconds;
  let since = Date.now();
  let every = 15000;
  let stopped = false;
  let held = false;
  let beatTimer = null;
  let inflight = null; // the heartbeat request on its way, if any
  const visible = () => document.visibilityState !== "hidden";
  const now = () => known + (visible() ? Math.floor((Date.now() - since) / 1000) : 0);

  function beat() {
    window.clearTimeout(beatTimer);
    if (stopped || held || !visible()) {
      return;
    }
    inflight = call(`${base}sessions/${sessionId}/heartbeat/`, {}).then((result) => {
      inflight = null;
      if (result.ok) {
        known = result.data.active_seconds;
        since = Date.now();
        every = result.data.heartbeat_seconds * 1000;
      } else if (result.data && result.data.session) {
        stopped = true; // submitted or discarded (in another tab): the time is final
      }
      if (!stopped) {
        beatTimer = window.setTimeout(beat, every);
      }
    });
  }

  document.addEventListener("visibilitychange", () => {
    if (visible()) {
      since = Date.now();
      beat();
    } else {
      known += Math.floor((Date.now() - since) / 1000);
    }
  });
  const tickTimer = window.setInterval(() => {
    if (!stopped) {
      onTick(now());
    }
  }, 1000);
  onTick(now());
  beat();
  return {
    stop() {
      stopped = true;
      window.clearInterval(tickTimer);
      window.clearTimeout(beatTimer);
    },
    // Before submitting: no heartbeat may reach the server after the paragraph is finished.
    hold() {
      held = true;
      window.clearTimeout(beatTimer);
      return inflight || Promise.resolve();
    },
    release() {
      held = false;
      beat();
    },
  };
}
