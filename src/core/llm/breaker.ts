/**
 * A circuit breaker for the language model. A model that keeps timing out or answering
 * unusably would make every job wait for two attempts (35–100 s) before taking its fallback;
 * after `failures` failed tasks in a row the breaker opens instead: tasks fail at once, without
 * calling the model, and their callers take the fallback they already have. After the
 * cool-down one trial task is let through (half-open): a usable answer closes the breaker, a
 * failure re-opens it with the cool-down doubled, up to `maxCooldownMs`.
 *
 * It is pure apart from the clock it is given, so it is tested without sleeping. The opening
 * is logged once (warn) and the closing once (info); skipped tasks are only counted.
 */
import { ErrorCode, HindsightError, isHindsightError } from "../errors.js";
import type { Clock, LanguageModel, LlmBreaker, Logger } from "../ports.js";
import type { LlmBreakerStats } from "../types.js";

export interface BreakerSettings {
  /** Failed tasks in a row that open the breaker; 0 turns the breaker off. */
  failures: number;
  /** How long the first opening lasts. */
  cooldownMs: number;
  /** The longest cool-down doubling reaches (never shorter than `cooldownMs`). */
  maxCooldownMs: number;
}

export const DEFAULT_BREAKER: BreakerSettings = {
  failures: 3,
  cooldownMs: 60_000,
  maxCooldownMs: 15 * 60_000,
};

/** Whether the task ran as the half-open breaker's single trial. */
interface Ticket {
  trial: boolean;
}

/**
 * True for the error a task fails with when the breaker skipped the model: its caller falls
 * back as for any failure, but need not warn again (the opening was logged).
 */
export function skippedByBreaker(error: unknown): boolean {
  return (
    isHindsightError(error) &&
    error.code === ErrorCode.LLM_FAILED &&
    typeof error.details?.breaker === "string"
  );
}

export class CircuitBreaker implements LlmBreaker {
  private state: "closed" | "open" | "half_open" = "closed";
  private consecutive = 0;
  private opens = 0;
  private skipped = 0;
  private openUntil = 0;
  private cooldownMs: number;
  private readonly maxCooldownMs: number;
  private trialRunning = false;

  constructor(
    private readonly settings: BreakerSettings,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** The model's id, for messages. */
    private readonly name: string,
  ) {
    this.cooldownMs = settings.cooldownMs;
    this.maxCooldownMs = Math.max(settings.maxCooldownMs, settings.cooldownMs);
  }

  private get enabled(): boolean {
    return this.settings.failures > 0;
  }

  async run<T>(purpose: string, task: () => Promise<T>): Promise<T> {
    const ticket = this.admit(purpose);
    let value: T;
    try {
      value = await task();
    } catch (error) {
      this.failed(ticket, error);
      throw error;
    }
    this.succeeded(ticket);
    return value;
  }

  stats(): LlmBreakerStats {
    const state = this.currentState();
    return {
      state,
      consecutive_failures: this.consecutive,
      opens: this.opens,
      skipped: this.skipped,
      open_until: state === "open" ? new Date(this.openUntil).toISOString() : null,
      cooldown_ms: this.cooldownMs,
    };
  }

  private currentState(): LlmBreakerStats["state"] {
    if (!this.enabled) return "disabled";
    if (this.state === "open" && this.clock.now().getTime() >= this.openUntil) return "half_open";
    return this.state;
  }

  /** Lets the task call the model, or throws the skip error at once. */
  private admit(purpose: string): Ticket {
    const state = this.currentState();
    if (state === "disabled" || state === "closed") return { trial: false };
    if (state === "half_open" && !this.trialRunning) {
      this.state = "half_open";
      this.trialRunning = true;
      return { trial: true };
    }
    this.skipped++;
    const openUntil = state === "open" ? new Date(this.openUntil).toISOString() : null;
    const why =
      state === "open"
        ? `circuit breaker open until ${openUntil} after ${this.consecutive} failed tasks in a row`
        : "circuit breaker half-open: its trial call is still running";
    throw new HindsightError(
      ErrorCode.LLM_FAILED,
      `${this.name} not called for ${purpose}: ${why}`,
      { details: { purpose, breaker: state, open_until: openUntil } },
    );
  }

  private succeeded(ticket: Ticket): void {
    if (!this.enabled) return;
    if (ticket.trial) this.trialRunning = false;
    this.consecutive = 0;
    // Any usable answer closes it: a trial's, or a task's let through before it opened.
    if (this.state !== "closed") {
      this.state = "closed";
      this.cooldownMs = this.settings.cooldownMs;
      this.logger.info(`language model ${this.name} answers again: circuit breaker closed`, {
        opens: this.opens,
        skipped: this.skipped,
      });
    }
  }

  private failed(ticket: Ticket, error: unknown): void {
    if (!this.enabled) return;
    if (ticket.trial) this.trialRunning = false;
    this.consecutive++;
    const reason = error instanceof Error ? error.message : String(error);
    if (ticket.trial && this.state === "half_open") {
      this.cooldownMs = Math.min(this.cooldownMs * 2, this.maxCooldownMs);
      this.open();
      this.logger.debug(`language model ${this.name} failed its trial call: breaker open again`, {
        open_until: new Date(this.openUntil).toISOString(),
        error: reason,
      });
    } else if (this.state === "closed" && this.consecutive >= this.settings.failures) {
      this.open();
      this.logger.warn(
        `language model ${this.name} failed ${this.consecutive} tasks in a row: circuit breaker ` +
          `open, features take their fallbacks without calling it for ${Math.round(this.cooldownMs / 1000)} s, ` +
          "then one trial call",
        { open_until: new Date(this.openUntil).toISOString(), error: reason },
      );
    }
    // Failures of tasks let through before it opened change nothing more.
  }

  private open(): void {
    this.state = "open";
    this.opens++;
    this.openUntil = this.clock.now().getTime() + this.cooldownMs;
  }
}

/**
 * The model behind a circuit breaker: the same model for every caller, whose completeJson
 * tasks the breaker guards. A model that already has one is returned as it is.
 */
export function guardLanguageModel(
  model: LanguageModel,
  settings: BreakerSettings,
  clock: Clock,
  logger: Logger,
): LanguageModel {
  if (model.breaker) return model;
  const breaker = new CircuitBreaker(settings, clock, logger, model.id);
  return {
    id: model.id,
    ...(model.models ? { models: model.models } : {}),
    chat: (request) => model.chat(request),
    usage: () => model.usage(),
    breaker,
  };
}
