/**
 * At most `maxRunning` commands at once; up to `maxQueued` more wait their turn in order. Past that, a call is
 * refused at once (the caller answers "busy") rather than left to hang.
 */
export class CommandLimiter {
  private readonly queue: (() => void)[] = []
  private running = 0

  constructor(
    readonly maxRunning: number,
    readonly maxQueued: number,
  ) {}

  get queued(): number {
    return this.queue.length
  }

  /** A promise of a release function, or undefined when the queue is full. */
  acquire(signal?: AbortSignal): Promise<() => void> | undefined {
    if (this.running < this.maxRunning) {
      this.running++
      return Promise.resolve(this.releaser())
    }

    if (this.queue.length >= this.maxQueued) return undefined
    return new Promise((resolve, reject) => {
      const start = () => {
        signal?.removeEventListener('abort', abandon)
        this.running++
        resolve(this.releaser())
      }

      const abandon = () => {
        const at = this.queue.indexOf(start)
        if (at !== -1) this.queue.splice(at, 1)
        reject(signal?.reason ?? new Error('aborted'))
      }

      if (signal?.aborted) return abandon()
      signal?.addEventListener('abort', abandon, {once: true})
      this.queue.push(start)
    })
  }

  private releaser(): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      this.running--
      this.queue.shift()?.()
    }
  }
}
