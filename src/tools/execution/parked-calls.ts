import {type PromptOutcome, QUESTION_WAIT_MS} from './command-questions.js'

/** A command that asked a question in a 2026-07-28 call, waiting for the round that brings the answer. */
export interface Parked<Run = unknown> {
  /** Ends the command: nobody came back with an answer in time (or the server stops). */
  expire(): void
  principal?: string
  /**
   * Gives the command the person's answer and waits as the call would: for its end, its next question, or a job.
   * `signal` is the answering round's: cancelling it stops the command, as cancelling the first round would have.
   */
  resume(outcome: PromptOutcome, signal?: AbortSignal): Promise<Run>
}

/**
 * The running commands of 2026-07-28 calls that wait for the person: each call's round ends with the question
 * (`input_required`), the command stays blocked on it here, and the client's next round, sealed to that question,
 * takes it up. Kept in this process: a round that reaches another replica is told the command is not here.
 */
export class ParkedCalls<Run = unknown> {
  private readonly waiting = new Map<string, {parked: Parked<Run>; timer: NodeJS.Timeout}>()

  park(id: string, parked: Parked<Run>): void {
    const timer = setTimeout(() => {
      if (this.waiting.delete(id)) parked.expire()
    }, QUESTION_WAIT_MS)
    timer.unref()
    this.waiting.set(id, {parked, timer})
  }

  /** The parked command of `id`, taken out (an answer is given once), when it is the caller's. */
  take(id: string, principal: string | undefined): Parked<Run> | undefined {
    const entry = this.waiting.get(id)
    if (!entry || entry.parked.principal !== principal) return undefined
    this.waiting.delete(id)
    clearTimeout(entry.timer)
    return entry.parked
  }

  /** Ends every waiting command (the server stops). */
  clear(): void {
    for (const [id, {parked, timer}] of this.waiting) {
      clearTimeout(timer)
      this.waiting.delete(id)
      parked.expire()
    }
  }
}
