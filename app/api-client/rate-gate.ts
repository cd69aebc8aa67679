/**
 * SPEC §9's client rule: at most `max` requests start in any `windowMs` (8 per 500 ms). Callers
 * wait their turn in order; nothing is dropped. A sliding window of the last starts, so a burst
 * of 20 goes out as 8, 8 (500 ms later) and 4 (1 s later). Uses the global clock and timers, so
 * tests drive it with fake timers.
 */
export interface RateGate {
  /** resolves when this caller may start a request */
  acquire(): Promise<void>
  /** callers waiting */
  readonly waiting: number
}

export function createRateGate(max = 8, windowMs = 500): RateGate {
  if (!(max >= 1) || !(windowMs > 0)) throw new Error('a rate gate needs max >= 1 and windowMs > 0')
  const starts: number[] = [] // start times within the current window, oldest first
  const queue: Array<() => void> = []
  let timer: ReturnType<typeof setTimeout> | undefined

  const pump = () => {
    timer = undefined
    while (queue.length) {
      const now = Date.now()
      while (starts.length && now - starts[0] >= windowMs) starts.shift()
      if (starts.length >= max) {
        timer = setTimeout(pump, starts[0] + windowMs - now)
        return
      }
      starts.push(now)
      queue.shift()!()
    }
  }

  return {
    acquire: () =>
      new Promise<void>((resolve) => {
        queue.push(resolve)
        if (!timer) pump()
      }),
    get waiting() {
      return queue.length
    },
  }
}
