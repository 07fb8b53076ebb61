import type {InputRequiredResult} from '@modelcontextprotocol/server'

import type {CommandQuestion, QuestionReply} from './prompt-channel.js'

import {answerFrom, asksForSecret, formOf, MAX_QUESTIONS, type PromptOutcome, type QuestionForm, STOP, type StopReason} from './command-questions.js'

// One call's questions, as its command asks them (prompt-channel.ts brings them): asked of the person in turn while the
// call waits, or ending the command (command-questions.ts says how each is asked and what ends it).

/** How a call's command questions reach the person: a form at a time, or the reason nobody can be asked. */
export type Prompting = {ask: (form: QuestionForm, park: string) => Promise<PromptOutcome>; urls: boolean} | {cannot: string}

interface Waiting {
  question: CommandQuestion
  reply: (reply: QuestionReply) => void
}

/**
 * One call's questions: they queue as the command asks them, and the call, while it waits in the foreground, asks
 * each of the person in turn (execute-command.ts). A question that comes once the call has ended (its command runs
 * as a job), a secret, one past the bound, or one nobody can be asked ends the command, and `stopped` says why.
 */
export class CallQuestions {
  /** What was asked of the person, for the audit log: never an answer. */
  readonly asked: {answered: boolean; kind: string; message: string}[] = []
  /** The call still waits for its command (a question now can be asked). */
  foreground = true
  stopped?: {detail: string; question: CommandQuestion; reason: StopReason}
  private readonly queue: Waiting[] = []
  private wake?: () => void
  private left: () => void = () => {}
  /** Settles when the call stops waiting for its command. */
  private readonly leaving = new Promise<'left'>((resolve) => (this.left = () => resolve('left')))

  constructor(
    private readonly prompting: Prompting,
    private readonly asker: string,
    /** What the person may see of a question: secrets the server knows are taken out of it first. */
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  /** What the question channel gives each question of this call's command. */
  readonly handler = (question: CommandQuestion): Promise<QuestionReply> =>
    new Promise((reply) => {
      if (!this.foreground) {
        this.stop({question, reply}, 'background')
        return
      }

      this.queue.push({question, reply})
      this.wake?.()
    })

  /** Resolves when a question waits to be asked. */
  arrival(): Promise<'question'> {
    if (this.queue.length > 0) return Promise.resolve('question')
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = undefined
        resolve('question')
      }
    })
  }

  /** The call stops waiting (its command ended or goes on as a job): questions from now on end the command. */
  leaveForeground(): void {
    this.foreground = false
    this.left()
    for (const waiting of this.queue.splice(0)) this.stop(waiting, 'background')
  }

  /**
   * Asks the first waiting question. Undefined once it is answered or has ended the command; for a 2026-07-28 call,
   * the round to answer with and `resume`, which takes the answer that round brings back.
   */
  async askNext(park: string): Promise<{pending: InputRequiredResult; resume: (outcome: PromptOutcome) => void} | undefined> {
    const waiting = this.queue.shift()
    if (!waiting) return undefined
    const {question} = waiting
    if (question.unreadable) return this.stop(waiting, 'nobody', 'its question could not be read: a list with nothing to choose from, or a kind of question the server does not know')
    if ('cannot' in this.prompting) return this.stop(waiting, 'nobody', this.prompting.cannot)
    if (asksForSecret(question)) return this.stop(waiting, 'secret')
    if (question.kind === 'url' && !this.prompting.urls) return this.stop(waiting, 'nobody', 'this client cannot open a page for the person (URL-mode elicitation)')
    if (this.asked.length >= MAX_QUESTIONS) return this.stop(waiting, 'too-many')
    this.asked.push({answered: false, kind: question.kind, message: question.message})
    // The person sees the question with the call's secrets taken out, and answers it as they saw it.
    const shown = this.shown(question)
    waiting.question = shown
    let outcome: 'left' | PromptOutcome
    try {
      outcome = await Promise.race([this.prompting.ask(formOf(shown, this.asker), park), this.leaving])
    } catch (error) {
      return this.stop(waiting, 'nobody', `asking failed: ${error instanceof Error ? error.message : String(error)}`)
    }

    // The command ended while its question was out (its time limit, a crash): the answer has nowhere to go, and the
    // call does not wait for it.
    if (outcome === 'left' || (!this.foreground && !('pending' in outcome))) {
      waiting.reply(STOP)
      return undefined
    }

    if ('pending' in outcome) return {pending: outcome.pending, resume: (answer) => this.settle(waiting, answer)}
    this.settle(waiting, outcome)
    return undefined
  }

  private shown(question: CommandQuestion): CommandQuestion {
    const {redact} = this
    return {
      ...question,
      ...(question.choices ? {choices: question.choices.map((c) => redact(c))} : {}),
      ...(typeof question.default === 'string' ? {default: redact(question.default)} : {}),
      message: redact(question.message),
      ...(question.problem ? {problem: redact(question.problem)} : {}),
    }
  }

  private settle(waiting: Waiting, outcome: PromptOutcome): void {
    if ('content' in outcome) {
      const answer = answerFrom(waiting.question, outcome.content)
      // An answer that does not fit the question is asked again (it counts toward the bound).
      if (!answer) {
        this.queue.unshift(waiting)
        return
      }

      this.asked.at(-1)!.answered = true
      waiting.reply({answer: answer.value})
      return
    }

    if ('refused' in outcome) this.stop(waiting, outcome.refused === 'cancel' ? 'cancelled' : 'declined')
    else if ('unanswered' in outcome) this.stop(waiting, 'unanswered', outcome.unanswered)
  }

  private stop(waiting: Waiting, reason: StopReason, detail = ''): undefined {
    this.stopped ??= {detail, question: waiting.question, reason}
    waiting.reply(STOP)
    return undefined
  }
}
