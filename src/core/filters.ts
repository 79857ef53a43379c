/** The scope and tag filters of a request (recall, list), as the storage ports take them. */
export interface ScopeRequest {
  user_id?: string | undefined;
  agent_id?: string | undefined;
  session_id?: string | undefined;
  tags?: string[] | undefined;
  tags_match: "any" | "all";
}

export interface ScopeFilter {
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  /** Memories holding any (or all) of these tags. */
  tags?: { values: readonly string[]; match: "any" | "all" };
}

/** Only the filters the request names: an absent one filters nothing. */
export function scopeFilter(request: ScopeRequest): ScopeFilter {
  return {
    ...(request.user_id === undefined ? {} : { user_id: request.user_id }),
    ...(request.agent_id === undefined ? {} : { agent_id: request.agent_id }),
    ...(request.session_id === undefined ? {} : { session_id: request.session_id }),
    ...(request.tags === undefined
      ? {}
      : { tags: { values: request.tags, match: request.tags_match } }),
  };
}
