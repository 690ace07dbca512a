// A file written whole or not at all (a scenario, a recording's progress): through a
// temporary one beside it, renamed over it, so a reader never sees half of it; a failure
// is one WriteError naming the file.
import { renameSync, writeFileSync } from 'node:fs'

/** A file the recording could not write (a full disk, a folder it may not write in). */
export class WriteError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WriteError'
  }
}

/** Writes a file through a temporary one beside it: a reader never sees half of it. */
export function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, text)
    renameSync(temporary, path)
  } catch (error) {
    throw new WriteError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
}
