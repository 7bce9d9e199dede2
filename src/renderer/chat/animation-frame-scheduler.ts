import type { FrameScheduler } from './frame-batcher.js';

/**
 * The next animation frame, with a timer as a floor: a hidden window gets no animation frames, and an
 * approval request must still reach the state (and the native prompt) while it is hidden.
 */
export const animationFrameScheduler: FrameScheduler = {
  schedule(flush) {
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      flush();
    };
    const frame = requestAnimationFrame(run);
    const timer = setTimeout(run, 100);
    return () => {
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  },
};
