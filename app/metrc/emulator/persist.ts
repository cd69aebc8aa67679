/**
 * The emulator's state on disk: one JSON file in its folder, written to a temp file and renamed
 * (a crash leaves the old state or the new, never half of one), a moment after each change and
 * on close. A folder without a state starts from the seeded demo world.
 */
import fs from 'node:fs'
import path from 'node:path'
import { emptyFacility, type EmulatorState } from './model'
import { seedState, type SeedOptions } from './seed'

export class StateFile {
  private timer: ReturnType<typeof setTimeout> | null = null
  readonly file: string

  constructor(
    readonly dir: string,
    readonly state: EmulatorState,
  ) {
    this.file = path.join(dir, 'state.json')
  }

  static open(dir: string, seed: SeedOptions = {}): StateFile {
    fs.mkdirSync(dir, { recursive: true })
    const file = path.join(dir, 'state.json')
    let state: EmulatorState
    try {
      state = JSON.parse(fs.readFileSync(file, 'utf8')) as EmulatorState
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${file}: not a readable emulator state (${(e as Error).message}); move it away to start afresh`)
      state = seedState(seed)
    }
    // a state written by an older emulator lacks the lists added since: they start empty
    for (const [k, f] of Object.entries(state.facilities)) state.facilities[k] = { ...emptyFacility(), ...f }
    const s = new StateFile(dir, state)
    s.saveNow()
    return s
  }

  /** a change: written within 100 ms */
  changed() {
    this.timer ??= setTimeout(() => this.saveNow(), 100)
  }

  saveNow() {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const tmp = `${this.file}.${process.pid}.tmp`
    const fd = fs.openSync(tmp, 'w')
    try {
      fs.writeFileSync(fd, JSON.stringify(this.state))
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    fs.renameSync(tmp, this.file)
  }
}
