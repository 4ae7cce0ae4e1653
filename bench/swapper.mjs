// `node bench/swapper.mjs DIR OUTSIDE`: flips DIR between the real folder it is and a symlink to
// OUTSIDE, as fast as it can, until killed (each state lasts a few system calls). The attacker of
// issue 15's races, used by `pnpm bench:races` and by the adversarial tests.
import { renameSync, rmSync, symlinkSync } from "node:fs";

const [dir, outside] = process.argv.slice(2);
rmSync(`${dir}.link`, { force: true });
symlinkSync(outside, `${dir}.link`);
for (;;) {
  try {
    renameSync(dir, `${dir}.real`);
    renameSync(`${dir}.link`, dir);
    renameSync(dir, `${dir}.link`);
    renameSync(`${dir}.real`, dir);
  } catch {
    // A state the loop did not expect (the tree is being removed): try again.
  }
}
