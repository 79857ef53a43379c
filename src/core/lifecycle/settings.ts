/**
 * The knobs of the memory lifecycle: decay and cold storage, confidence, consolidation,
 * deduplication and the schedule inside `hindsight serve`. The configuration schema takes its
 * defaults from here.
 */
export interface DecaySettings {
  /** λ per day for episodic memories: the score halves in about 14 unused days. */
  episodicLambda: number;
  /** λ per day for semantic memories: knowledge fades five times slower than episodes. */
  semanticLambda: number;
  /** α: weight of ln(1 + access_count), what being recalled adds back. */
  accessWeight: number;
  /** Below this decay score an active memory moves to cold storage (status archived). */
  archiveThreshold: number;
}

export interface ConfidenceSettings {
  /** A semantic memory whose confidence falls below this is archived. */
  minimum: number;
  /** Days a semantic memory may go unused before its confidence starts to decay. */
  unusedGraceDays: number;
  /** Confidence decay per unused day after the grace period (multiplicative, exp(−rate·days)). */
  decayPerDay: number;
  /** Added to confidence when a recalled memory is reported useful. */
  usefulStep: number;
  /** Taken from confidence when it is reported not useful: bad knowledge falls faster. */
  notUsefulStep: number;
}

export interface ConsolidationSettings {
  /** Episodes of one task type (and scope) not yet consolidated that trigger consolidation. */
  minEpisodes: number;
  /** The most recent episodes one consolidation looks at: the token budget of one model call. */
  maxEpisodes: number;
  /** Groups (task type × user × agent) consolidated per run, most pending first. */
  maxGroups: number;
}

export interface ScheduleSettings {
  /** Seconds between maintenance runs inside `hindsight serve`; 0 turns it off. */
  maintainIntervalSeconds: number;
  /** Seconds between consolidation runs inside `hindsight serve`; 0 turns it off. */
  consolidateIntervalSeconds: number;
}

export interface LifecycleSettings {
  decay: DecaySettings;
  confidence: ConfidenceSettings;
  consolidation: ConsolidationSettings;
  /** Cosine similarity at or above which a new semantic memory merges into an existing one. */
  dedupSimilarity: number;
  schedule: ScheduleSettings;
}

export const DEFAULT_LIFECYCLE: LifecycleSettings = {
  decay: { episodicLambda: 0.05, semanticLambda: 0.01, accessWeight: 0.1, archiveThreshold: 0.2 },
  confidence: {
    minimum: 0.2,
    unusedGraceDays: 30,
    decayPerDay: 0.005,
    usefulStep: 0.1,
    notUsefulStep: 0.2,
  },
  consolidation: { minEpisodes: 10, maxEpisodes: 50, maxGroups: 10 },
  dedupSimilarity: 0.9,
  schedule: { maintainIntervalSeconds: 3600, consolidateIntervalSeconds: 21_600 },
};
