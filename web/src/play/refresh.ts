/** Reloads that never overlap: asks made while one runs fold into one more run after it. */

/**
 * A function that runs `load` now, or once more after the run in progress when called
 * during one (however often). `load` answers true to be run again at once.
 */
export function coalesced(load: () => Promise<boolean>): () => void {
  let wanted = 0;
  let loading = false;
  async function run(): Promise<void> {
    loading = true;
    try {
      while (wanted > 0) {
        wanted = 0;
        if (await load()) wanted += 1;
      }
    } finally {
      loading = false;
    }
  }
  return () => {
    wanted += 1;
    if (!loading) void run();
  };
}
