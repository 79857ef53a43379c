/**
 * Whether a process with this id exists: signal 0 checks without sending anything. A process
 * of another user counts as alive (EPERM), which is what a caller waiting for it to go needs.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
